// The one list of a step's expression fields (checker/spec-expr/step-expressions.ts): each field's
// lookup finds the expression checked at that very key, and checkedStepExpressions returns every
// expression the phase checked for a step, the 0.3 kinds' validate, agree_on and converge included.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import {
  checkedStepExpressions,
  isStepExpressionField,
  STEP_EXPRESSION_FIELDS,
} from "../../../checker/spec-expr/step-expressions";
import { SPEC03 } from "../services/assist/member-expressions-support";

const ITERATING = `version: "0.2"
contracts:
  Out:
    items: {type: array, items: {type: string}}
flows:
  main:
    input: {}
    steps:
      - id: loop
        intent: "Find"
        output_contract: Out
        skip_if: "False"
        max_iterations: 3
        accumulate: "result.items"
        accumulate_key: "item.lower()"
        exit_criterion: "accumulated_count >= 2"
        ensure: ["len(result.items) >= 0", "True"]
`;

/** Per step id: `key=text` of each single-expression field found by its lookup, and the total. */
function found(text: string): Record<string, { fields: string[]; all: number }> {
  const check = checkSpec(text);
  expect(check.diagnostics).toEqual([]);
  const table = check.expressions;
  const out: Record<string, { fields: string[]; all: number }> = {};
  for (const step of check.model?.flows.flatMap((f) => f.steps) ?? []) {
    if (table === null || step.id === null) continue;
    const fields: string[] = [];
    for (const [key, lookup] of STEP_EXPRESSION_FIELDS) {
      const checked = lookup(table, step);
      if (checked === null) continue;
      // the expression checked is the scalar written at that key
      expect(checked.node).toBe(step.string(key)?.entry.value);
      fields.push(`${key}=${checked.text}`);
    }
    out[step.id] = { fields, all: checkedStepExpressions(table, step).length };
  }
  return out;
}

describe("step expression fields", () => {
  it("the docs/reference/language.md §10.6 positions and ensure items", () => {
    expect(found(ITERATING)).toEqual({
      loop: {
        fields: [
          "skip_if=False",
          "exit_criterion=accumulated_count >= 2",
          "accumulate=result.items",
          "accumulate_key=item.lower()",
        ],
        all: 6,
      },
    });
  });

  it("validate, agree_on and converge of the 0.3 step kinds", () => {
    const got = found(SPEC03);
    expect(got.run?.fields).toEqual([expect.stringMatching(/^validate=sum\(r\.tests_added/)]);
    expect(got.classify?.fields).toEqual(["agree_on=result.severity"]);
    expect(got.design?.fields).toEqual([expect.stringMatching(/^converge=round_number >= 2/)]);
    expect([got.plan?.all, got.run?.all, got.classify?.all, got.design?.all]).toEqual([0, 1, 1, 1]);
  });

  it("keys are tested without the prototype: user text such as __proto__ is no field", () => {
    expect(isStepExpressionField("validate")).toBe(true);
    expect(isStepExpressionField("ensure")).toBe(false);
    expect(isStepExpressionField("__proto__")).toBe(false);
    expect(isStepExpressionField("toString")).toBe(false);
  });
});
