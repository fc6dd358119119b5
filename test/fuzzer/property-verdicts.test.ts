// The spec's own properties under `stratumc fuzz`: each violated property is found on several
// seeds with the same minimal counterexample, holding ones are proven where the state space is
// small, eventually counts a run cut at the call limit as not satisfied, and random specs with a
// property that always holds and one that never does get exactly those verdicts (fast-check).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzSpec } from "../../fuzzer/index";
import type { WireCall } from "../../fuzzer/run/session";
import { validSpec } from "../interpreter/properties/spec-arbitrary";
import { CORPUS_DIR } from "./support/corpus";

const SEEDS = [1, 7, 42, 2024];

function corpus(name: string): string {
  return readFileSync(join(CORPUS_DIR, `${name}.stratum.yaml`), "utf8");
}

/** A call as the witness line prints it: the step, and a gate's outcome. */
function word(c: WireCall): string {
  const step = typeof c.arguments.step_id === "string" ? c.arguments.step_id : "";
  if (c.tool === "stratum_plan") return "plan";
  return typeof c.arguments.outcome === "string" ? `${step} ${c.arguments.outcome}` : step;
}

describe("properties under stratumc fuzz", () => {
  it.each(SEEDS)("finds the deploy after a kill with the 4-call witness (seed %i)", async (seed) => {
    const { report } = await fuzzSpec(corpus("property-violated-1"), { seed, runs: 40 });
    const findings = report?.findings.filter((f) => f.code === "FUZZ-PROPERTY-VIOLATED") ?? [];
    expect(findings.map((f) => [f.line, f.column, f.step])).toEqual([[41, 3, null]]);
    expect(findings[0]?.counterexample?.calls.map(word)).toEqual([
      "plan",
      "build",
      "sign_off kill",
      "deploy",
    ]);
    expect(findings[0]?.message).toContain(
      "after call 4 (stratum_step_done 'deploy') the condition is false",
    );
    expect(report?.properties.approved_before_deploy).toMatchObject({ flow: "release", verdict: "violated" });
  });

  it.each(SEEDS)("finds the third fix attempt with the 3-call witness (seed %i)", async (seed) => {
    const { report } = await fuzzSpec(corpus("property-violated-2"), { seed, runs: 40 });
    const [finding] = report?.findings.filter((f) => f.code === "FUZZ-PROPERTY-VIOLATED") ?? [];
    expect(finding?.line).toBe(38);
    expect(finding?.counterexample?.calls.map(word)).toEqual(["plan", "fix", "fix"]);
    expect(report?.properties.at_most_two_fix_attempts?.verdict).toBe("violated");
    // Every run ends: complete, or failed when the retries run out.
    expect(report?.properties.finishes_or_fails?.verdict).toBe("proven");
  });

  it.each(SEEDS)("proves the look-alike's four properties (seed %i)", async (seed) => {
    const { report } = await fuzzSpec(corpus("control-property-violated-1"), { seed, runs: 40 });
    expect(report?.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(Object.entries(report?.properties ?? {}).map(([n, p]) => [n, p.kind, p.verdict])).toEqual([
      ["approved_before_deploy", "always", "proven"],
      ["revise_rebuilds", "leads_to", "proven"],
      ["ends", "eventually", "proven"],
      ["build_attempts_bounded", "never", "proven"],
    ]);
  });

  it("counts a run cut at the call limit as not satisfying eventually, and says so", async () => {
    const spec = corpus("control-property-violated-1").replace(
      "eventually: \"$.flow.status == 'complete' or $.flow.status == 'killed'\"",
      "eventually: \"$.steps.deploy.status == 'done' or $.flow.status == 'killed'\"",
    );
    // Three calls cannot reach deploy: every run is cut before the flow ends.
    const { report } = await fuzzSpec(spec, { runs: 10, maxCalls: 3 });
    const finding = report?.findings.find((f) => f.code === "FUZZ-PROPERTY-VIOLATED");
    expect(finding?.message).toContain("the run was cut at the fuzzer's call limit (3 calls)");
    expect(report?.properties.ends?.verdict).toBe("violated");
  });

  it("a leads_to whose `to` never follows is violated when the run ends", async () => {
    const spec = corpus("control-property-violated-1").replace(
      "to: \"$.steps.build.status == 'done'\"",
      "to: \"$.steps.deploy.status == 'done'\"",
    );
    const { report } = await fuzzSpec(spec, { runs: 30 });
    const finding = report?.findings.find((f) => f.code === "FUZZ-PROPERTY-VIOLATED");
    expect(finding?.line).toBe(44);
    expect(finding?.message).toMatch(
      /'from' held after call \d+, and the flow ended \(killed\) with no later state/,
    );
    expect(finding?.counterexample?.calls.map(word)).toEqual([
      "plan",
      "build",
      "sign_off revise",
      "build",
      "sign_off kill",
    ]);
  });

  it("random specs: a property that always holds is never refuted, one that never holds is violated at the plan", async () => {
    await fc.assert(
      fc.asyncProperty(validSpec({ forwardOnly: false }), fc.nat(), async (spec, seed) => {
        const text = [
          spec.text,
          "properties:",
          "  holds:",
          "    flow: main",
          "    always: \"$.flow.round >= 0 and $.flow.status in ['running', 'complete', 'failed', 'killed']\"",
          "  breaks:",
          "    flow: main",
          '    never: "$.flow.round >= 0"',
          "",
        ].join("\n");
        const { check, report } = await fuzzSpec(text, { runs: 10, maxPaths: 20, maxCalls: 60, seed });
        expect(check.errors).toEqual([]);
        expect(report?.properties.holds?.verdict).not.toBe("violated");
        expect(report?.properties.breaks?.verdict).toBe("violated");
        const breaks = report?.findings.filter((f) => f.code === "FUZZ-PROPERTY-VIOLATED") ?? [];
        expect(breaks.map((f) => f.path)).toEqual(["properties.breaks"]);
        expect(breaks[0]?.counterexample?.calls.map((c) => c.tool)).toEqual(["stratum_plan"]);
      }),
      { numRuns: 8, seed: 34 },
    );
  }, 300_000);
});
