// The 21 recorded evaluations of pipeline `when` / `exit_when` by reference 0.2.69
// (v0269-pipeline-predicates.jsonl) through stratumc: a case the reference refuses to compile is
// refused by our checker (with the reference's wording for a name outside the position's set);
// every other case evaluates, with the values bound raw and `prev` / `result` as text (JSON unless
// a string), to the reference's answer: true, false, or an exception with the same message.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/index";
import { parseExpression } from "../../grammar/parse";
import { compileExpression } from "../../interpreter/eval/compile";
import { evaluate } from "../../interpreter/eval/evaluate";
import { PyError } from "../../stdlib/values/errors";
import { fromJsonValue, toJson } from "../../stdlib/values/json";
import { truthy } from "../../stdlib/values/truth";
import type { PyValue } from "../../stdlib/values/value";
import { CONFORMANCE_DIR } from "../support/shared";

/**
 * Cases where our evaluator answers differently (DIV-NESTED-ATTR, docs/reference/divergences.md): our expressions read a
 * dict's key as an attribute, so `item.lang` on an object element answers instead of raising.
 */
const DIVERGES: ReadonlyMap<string, boolean> = new Map([["item.lang == 'py'", true]]);

interface PredicateCase {
  readonly position: "when" | "exit_when";
  readonly stage: number;
  readonly expr: string;
  readonly item: unknown;
  readonly output: unknown;
  readonly outcome: boolean | "raises" | "compile_error";
  readonly message?: string;
}

const CASES = readFileSync(resolve(CONFORMANCE_DIR, "v0269-pipeline-predicates.jsonl"), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => JSON.parse(line) as PredicateCase);

/** A spec whose pipeline carries the case's predicate on its stage (a flow-style YAML string). */
function specOf(c: PredicateCase): string {
  const stages = Array.from({ length: c.stage + 1 }, (_, j) =>
    j === c.stage
      ? `          - {intent_template: "s${j}", ${c.position}: ${JSON.stringify(c.expr)}}`
      : `          - {intent_template: "s${j}"}`,
  );
  return [
    'version: "0.3"',
    "flows:",
    "  main:",
    "    input: {files: {type: array}}",
    "    steps:",
    "      - id: pipe",
    "        type: pipeline",
    '        source: "$.input.files"',
    "        stages:",
    ...stages,
    "",
  ].join("\n");
}

/** What the predicate sees: the element, and the output raw and as text (prev on `when`, result on `exit_when`). */
function namesOf(c: PredicateCase): Map<string, PyValue> {
  const output = fromJsonValue(c.output);
  const text = typeof output === "string" ? output : toJson(output);
  const prefix = c.position === "when" ? "prev" : "result";
  return new Map<string, PyValue>([
    ["item", fromJsonValue(c.item)],
    [prefix, text],
    [`${prefix}_raw`, output],
  ]);
}

describe("pipeline predicates as 0.2.69 evaluates them", () => {
  it("reads the 21 recorded cases", () => {
    expect(CASES.length).toBe(21);
  });

  it.each(CASES.filter((c) => c.outcome === "compile_error"))(
    "refuses $position '$expr' at stage $stage",
    (c) => {
      const path = `flows.main.steps.pipe.stages[${c.stage}].${c.position}`;
      const errors = checkSpec(specOf(c)).errors.filter((d) => d.path === path);
      expect(errors.length).toBeGreaterThan(0);
      if (c.message?.includes("disallowed name")) {
        expect(errors.map((d) => d.message)).toContain(
          `pipeline step 'pipe' stage ${c.stage} has invalid '${c.position}': ${c.message}`,
        );
      }
    },
  );

  it.each(CASES.filter((c) => c.outcome !== "compile_error"))(
    "evaluates $position '$expr' as the reference",
    (c) => {
      const parsed = parseExpression(c.expr);
      if (parsed.expr === null) throw new Error(`does not parse: ${c.expr}`);
      const run = () =>
        evaluate(compileExpression(parsed.expr as NonNullable<typeof parsed.expr>), namesOf(c));
      const ours = DIVERGES.get(c.expr);
      if (ours !== undefined) {
        expect(truthy(run())).toBe(ours);
      } else if (c.outcome === "raises") {
        const raised = (() => {
          try {
            run();
            return null;
          } catch (e) {
            if (e instanceof PyError) return e.message;
            throw e;
          }
        })();
        expect(
          `Predicate ${JSON.stringify(c.expr).includes("'") ? JSON.stringify(c.expr) : `'${c.expr}'`} raised: ${raised}`,
        ).toBe(c.message);
      } else {
        expect(truthy(run())).toBe(c.outcome);
      }
    },
  );
});
