// Every seeded defect is found at the right step and line and no look-alike
// control is flagged, with the default seed (20 other seeds: corpus-seeds-*.test.ts).
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../checker/catalogue";
import { checkSpec } from "../../checker/check-spec";
import { fuzzSpec } from "../../fuzzer/index";
import { loadCorpus, notation } from "./support/corpus";

const CORPUS = loadCorpus();

describe("the seeded-defect corpus", () => {
  it("has at least two defect specs per finding code (but the tool's own failures) and a control per code", () => {
    // FUZZ-INTERNAL (the interpreter failed) and FUZZ-WORKER-FAILED (a worker thread crashed or
    // hung, test/cli/fuzz/fuzz-workers.test.ts) say nothing about a spec: no spec can seed them.
    const TOOL_FAILURES = new Set(["FUZZ-INTERNAL", "FUZZ-WORKER-FAILED"]);
    const codes = [...CATALOGUE.values()].filter((r) => r.family === "fuzz" && !TOOL_FAILURES.has(r.code));
    for (const rule of codes) {
      const defects = CORPUS.filter((c) => c.expected.some((e) => e.startsWith(`${rule.code} `)));
      const slug = rule.code.replace(/^FUZZ-/, "").toLowerCase();
      const controls = CORPUS.filter((c) => c.expected.length === 0 && c.name.startsWith(`control-${slug}-`));
      expect(defects.length, rule.code).toBeGreaterThanOrEqual(2);
      expect(controls.length, rule.code).toBeGreaterThanOrEqual(1);
    }
  });

  // The checker's control analysis finds these seeded defects statically (docs/reference/language.md §9.8).
  const STATIC: ReadonlyMap<string, readonly string[]> = new Map([
    ["dead-step-3.stratum.yaml", ["SPEC-STEP-DEAD"]],
    ["control-unbounded-loop-3.stratum.yaml", ["SPEC-REVISE-UNBOUNDED"]],
  ]);
  it.each(CORPUS.map((c) => [c.name, c] as const))(
    "%s checks clean but for what check finds",
    (name, spec) => {
      expect(checkSpec(spec.text).diagnostics.map((d) => d.code)).toEqual(STATIC.get(name) ?? []);
    },
  );

  it.each(CORPUS.map((c) => [c.name, c] as const))(
    "%s: exactly the expected findings (default seed)",
    async (_name, spec) => {
      const { report } = await fuzzSpec(spec.text);
      expect(report?.findings.map(notation).sort()).toEqual(spec.expected);
    },
  );
});
