// The option values of `stratumc fuzz`: durations, whole numbers, seeds; the defaults the help
// text names are the fuzzer's.
import { describe, expect, it } from "vitest";
import { parseDuration, parseSeed, parseWholeNumber } from "../../../cli/fuzz/options";
import { DEFAULT_MAX_CALLS, DEFAULT_RUNS, DEFAULT_SEED } from "../../../fuzzer/index";
import { run } from "./harness";

describe("fuzz option values", () => {
  it("reads durations with a unit", () => {
    expect(parseDuration("--time-budget", "500ms")).toBe(500);
    expect(parseDuration("--time-budget", "3s")).toBe(3_000);
    expect(parseDuration("--time-budget", "1.5m")).toBe(90_000);
    expect(parseDuration("--time-budget", "2h")).toBe(7_200_000);
    for (const bad of ["3", "0s", "-1s", "s", "3 sec", "1e3ms", ""]) {
      expect(() => parseDuration("--time-budget", bad)).toThrow(
        `--time-budget: expected a duration such as 500ms, 3s or 2m, got '${bad}'`,
      );
    }
  });

  it("reads whole numbers and 32-bit seeds", () => {
    expect(parseWholeNumber("--runs", "30", 1)).toBe(30);
    expect(() => parseWholeNumber("--runs", "0", 1)).toThrow("--runs: expected a whole number >= 1, got '0'");
    expect(() => parseWholeNumber("--runs", "1.5", 1)).toThrow("got '1.5'");
    expect(parseSeed("-7")).toBe(-7);
    expect(parseSeed("2147483647")).toBe(2147483647);
    expect(() => parseSeed("2147483648")).toThrow("--seed: expected a whole number");
  });

  it("names the fuzzer's defaults in the help text", async () => {
    const help = await run(["fuzz", "--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain(`(default ${DEFAULT_SEED})`);
    expect(help.out).toContain(`(default ${DEFAULT_RUNS})`);
    expect(help.out).toContain(`(default ${DEFAULT_MAX_CALLS})`);
  });
});
