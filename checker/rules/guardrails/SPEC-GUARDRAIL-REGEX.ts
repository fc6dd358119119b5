// SPEC-GUARDRAIL-REGEX: a guardrail is compiled as a Python regular expression; one that does not
// compile would fail the run the first time a result is checked.

import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { RuleVisitor } from "../types";
import { functionGuardrails, type GuardrailPattern, stepGuardrails } from "./patterns";

export const SPEC_GUARDRAIL_REGEX = defineRule({
  code: "SPEC-GUARDRAIL-REGEX",
  severity: "error",
  family: "contract",
  errorType: "ir_semantic_error",
  title: "A guardrail is not a valid regular expression",
  doc: "Guardrails are Python `re` patterns (compiled with IGNORECASE and MULTILINE), searched in the JSON text of a step's result. A pattern Python's `re.compile` rejects is reported with Python's reason and position, counted in characters of the pattern. Escape the character the message names (`\\[`, `\\*`, `\\(`) or close the group or set.",
  example: {
    bad: "guardrails: ['[secret']",
    good: "guardrails: ['\\[secret']",
  },
  message: (owner: string, index: number, why: string) =>
    `${owner} guardrail[${index}] is not a valid regex: ${why}`,
  visit(on: RuleVisitor): void {
    const report = (patterns: readonly GuardrailPattern[], reporter: Reporter): void => {
      for (const g of patterns) {
        if (g.compiled.kind !== "invalid") continue;
        reporter.report(SPEC_GUARDRAIL_REGEX, {
          message: SPEC_GUARDRAIL_REGEX.message(g.owner, g.index, g.compiled.message),
          path: g.path,
          range: g.range,
        });
      }
    };
    on.onFunction((fn, { reporter }) => report(functionGuardrails(fn), reporter));
    on.onStep((step, { reporter }) => report(stepGuardrails(step), reporter));
  },
});
