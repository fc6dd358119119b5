// `stratumc replay` of a property's witness checks that property, not any property the same run
// breaks: the saved witness of 'second' cut down to its first call breaks only 'first', and is
// not reproduced; the whole witness is, naming 'second'. Through the built binary.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, stratumc } from "../run-cli";

const SPEC = "test/fuzzer/blind-properties/tool-issues/replay-wrong-property.stratum.yaml";

beforeAll(() => ensureBundle());

describe("stratumc replay of a property witness", () => {
  it("reproduces the saved property only", () => {
    const dir = mkdtempSync(join(tmpdir(), "stratumc-replay-prop-"));
    const fuzz = stratumc(["fuzz", SPEC, "--seed", "1", "--runs", "10", "--save", dir]);
    expect(fuzz.status).toBe(1);
    const saved = readdirSync(dir)
      .map((f) => join(dir, f))
      .map((path) => ({ path, json: JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown> }));
    const second = saved.find((s) => String(s.json.message).includes("'second'"));
    expect(second).toBeDefined();
    const whole = stratumc(["replay", second!.path]);
    expect(whole.status).toBe(0);
    expect(whole.stdout).toContain("reproduced FUZZ-PROPERTY-VIOLATED: property 'second'");

    const calls = second!.json.calls as unknown[];
    const cut = join(dir, "cut.json");
    writeFileSync(cut, JSON.stringify({ ...second!.json, calls: calls.slice(0, 1) }));
    const replay = stratumc(["replay", cut]);
    expect(replay.stdout).toContain("not reproduced");
    expect(replay.stdout).not.toContain("property 'first'");
    expect(replay.status).toBe(1);
  });
});
