// SPEC-STEP-FUNCTION-UNDEFINED: a function step names a function of the document.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { stepPath, suggestName } from "../support";
import type { RuleVisitor } from "../types";
import { soleSelector } from "./selectors";

export const SPEC_STEP_FUNCTION_UNDEFINED = defineRule({
  code: "SPEC-STEP-FUNCTION-UNDEFINED",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A step references an undefined function",
  doc: "function: names an entry of the functions section, whose mode, intent, output contract and ensure the step uses. Declare the function, or correct the name (a close match is suggested).",
  example: {
    bad: "- {id: a, function: summarise, inputs: {}}",
    good: "- {id: a, function: summarize, inputs: {}}",
  },
  fix: "Replaces the name with the one function name of the document close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close; quotes around the value are kept, and added when the new name needs them.",
  message: (step: string, fn: string) => `Step '${step}' references undefined function '${fn}'`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { model, reporter }) => {
      if (soleSelector(model, step) !== "function") return;
      const fn = step.string("function");
      if (fn === null || model.functionByName.has(fn.value)) return;
      reporter.report(SPEC_STEP_FUNCTION_UNDEFINED, {
        message: SPEC_STEP_FUNCTION_UNDEFINED.message(step.id, fn.value),
        path: stepPath(step, "function"),
        range: valueRange(model.source, fn.entry),
        ...suggestName(fn.entry, fn.value, model.functionByName.keys()),
      });
    });
  },
});
