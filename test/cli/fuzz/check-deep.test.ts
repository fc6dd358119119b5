// `stratumc check --deep`: the findings of a short fuzzing join the diagnostics of every spec
// without errors, in position order, in every format, with check's exit codes.
import { describe, expect, it } from "vitest";
import { BROKEN_EXAMPLE, CLEAN_EXAMPLE, DEFECT, DEFECT_LINE, run } from "./harness";

describe("stratumc check --deep", () => {
  it("reports a FUZZ code on a seeded defect (exit 1)", async () => {
    const plain = await run(["check", DEFECT]);
    expect(plain.code).toBe(0);
    const deep = await run(["check", "--deep", DEFECT]);
    expect(deep.code).toBe(1);
    expect(deep.out).toContain(
      `${DEFECT}:${DEFECT_LINE}:9: error: ensure 'len(result.risk_notes) <= 500' raised`,
    );
    expect(deep.out).toContain("[FUZZ-ENSURE-RAISES]");
    const json = await run(["check", "--deep", DEFECT, "--format", "json"]);
    const [file] = JSON.parse(json.out) as { valid: boolean; errors: Record<string, unknown>[] }[];
    expect(file?.valid).toBe(false);
    expect(file?.errors.map((d) => [d.code, d.line])).toEqual([["FUZZ-ENSURE-RAISES", DEFECT_LINE]]);
    // The public diagnostic form: `fuzz` is where flows, steps and counterexamples are shown.
    expect(Object.keys(file!.errors[0]!)).not.toContain("counterexample");
    const github = await run(["check", "--deep", DEFECT, "--format", "github"]);
    expect(github.out).toContain(`::error file=${DEFECT},line=${DEFECT_LINE},col=9,`);
  });

  it("adds nothing on a clean example, and leaves specs with errors to the checker", async () => {
    for (const file of [CLEAN_EXAMPLE, BROKEN_EXAMPLE]) {
      for (const format of ["pretty", "json", "sarif"]) {
        expect(await run(["check", "--deep", file, "--format", format])).toEqual(
          await run(["check", file, "--format", format]),
        );
      }
    }
  });
});
