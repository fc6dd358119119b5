// SPEC-FN-INPUT-REQUIRED: the documented (but unenforced by the reference) 0.2 input rule.
import { entityRange } from "../../anchors";
import { defineRule } from "../../rule";
import { functionPath, lacks } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_FN_INPUT_REQUIRED = defineRule({
  code: "SPEC-FN-INPUT-REQUIRED",
  severity: "warning",
  family: "schema",
  errorType: "ir_semantic_error",
  title: "An infer/compute function should declare its input",
  doc: "The input mapping documents what the function expects from the steps that use it. The spec still runs (the reference accepts it), but declare the inputs, or write `input: {}` when the function takes none.",
  example: {
    bad: 'plan:\n  mode: infer\n  intent: "Plan the work"\n  output: Plan',
    good: 'plan:\n  mode: infer\n  intent: "Plan the work"\n  input: {}\n  output: Plan',
  },
  message: (fn: string, mode: string) =>
    `Function '${fn}' (mode '${mode}') must declare input (use {} when it takes none)`,
  visit(on: RuleVisitor): void {
    on.onFunction((fn, { model, reporter }) => {
      // In 0.1 a missing input is SCHEMA-REQUIRED.
      if (model.version === "0.1") return;
      if ((fn.mode !== "infer" && fn.mode !== "compute") || !lacks(fn, "input")) return;
      reporter.report(SPEC_FN_INPUT_REQUIRED, {
        message: SPEC_FN_INPUT_REQUIRED.message(fn.name, fn.mode),
        path: functionPath(fn),
        range: entityRange(fn.decl),
      });
    });
  },
});
