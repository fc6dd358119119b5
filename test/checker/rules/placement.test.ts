// checker/rules/placement.ts: the misplaced expression fields (docs/reference/language.md §9.3 last bullet) agree with the
// rules that report them — a field is in the set exactly when one of those rules reports it.
import { describe, expect, it } from "vitest";
import { functionEnsureMisplaced, misplacedExpressionFields } from "../../../checker/rules/placement";
import { modelOf, runRules, stepOf, withSteps } from "./support";

const CASES: readonly { step: string; misplaced: readonly string[]; codes: readonly string[] }[] = [
  {
    step: "{id: s, function: work, ensure: ['True'], skip_if: 'False'}",
    misplaced: ["ensure"],
    codes: ["SPEC-FN-STEP-FIELD"],
  },
  {
    step: "{id: s, function: review, on_approve: null, on_kill: null, on_revise: a, ensure: ['x'], exit_criterion: y}",
    misplaced: ["ensure", "exit_criterion"],
    codes: ["SPEC-FN-STEP-FIELD", "SPEC-GATE-EXIT-CRITERION"],
  },
  {
    step: "{id: s, function: review, on_approve: null, on_kill: null, on_revise: a, accumulate: x, accumulate_key: y}",
    misplaced: ["accumulate", "accumulate_key"],
    codes: ["SPEC-GATE-ACCUMULATE"],
  },
  {
    step: "{id: s, intent: x, exit_criterion: y, accumulate: z}",
    misplaced: ["exit_criterion", "accumulate"],
    codes: ["SPEC-EXIT-CRITERION-NO-MAX", "SPEC-ACCUMULATE-NO-MAX"],
  },
  {
    step: "{id: s, intent: x, max_iterations: 2, accumulate_key: y}",
    misplaced: ["accumulate_key"],
    codes: ["SPEC-ACCUMULATE-KEY-NO-ACCUMULATE"],
  },
  {
    step: "{id: s, intent: x, ensure: ['x'], skip_if: y, max_iterations: 2, exit_criterion: z, accumulate: w, accumulate_key: v}",
    misplaced: [],
    codes: [],
  },
  // A step without a kind (undefined function) takes no part in kind-specific rules.
  {
    step: "{id: s, function: nope, ensure: ['x'], exit_criterion: y}",
    misplaced: [],
    codes: ["SPEC-STEP-FUNCTION-UNDEFINED"],
  },
];

describe("misplacedExpressionFields", () => {
  for (const c of CASES) {
    it(c.step, () => {
      const text = withSteps(c.step);
      const fields = misplacedExpressionFields(stepOf(modelOf(text), "s"));
      expect([...fields].sort()).toEqual([...c.misplaced].sort());
      expect(runRules(text).map((d) => d.code)).toEqual(c.codes);
    });
  }
});

describe("functionEnsureMisplaced", () => {
  const doc = (fn: string) =>
    ['version: "0.2"', "contracts: {Out: {}}", "functions:", `  g: ${fn}`, ""].join("\n");
  const fnOf = (fn: string) => {
    const f = modelOf(doc(fn)).functionByName.get("g");
    if (f === undefined) throw new Error("no function g");
    return f;
  };

  it("is true exactly for a gate function with a non-empty ensure (SPEC-GATE-FN-ENSURE)", () => {
    expect(functionEnsureMisplaced(fnOf("{mode: gate, ensure: ['True']}"))).toBe(true);
    expect(runRules(doc("{mode: gate, ensure: ['True']}")).map((d) => d.code)).toEqual([
      "SPEC-GATE-FN-ENSURE",
    ]);
    expect(functionEnsureMisplaced(fnOf("{mode: gate, ensure: []}"))).toBe(false);
    expect(
      functionEnsureMisplaced(fnOf("{mode: infer, intent: i, input: {}, output: Out, ensure: ['True']}")),
    ).toBe(false);
  });
});
