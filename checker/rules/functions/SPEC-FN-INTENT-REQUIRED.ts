// SPEC-FN-INTENT-REQUIRED: the documented (but unenforced by the reference) 0.2 intent rule.
import { entityRange } from "../../anchors";
import { defineRule } from "../../rule";
import { functionPath, lacks } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_FN_INTENT_REQUIRED = defineRule({
  code: "SPEC-FN-INTENT-REQUIRED",
  severity: "warning",
  family: "schema",
  errorType: "ir_semantic_error",
  title: "An infer/compute function should have an intent",
  doc: "The intent is the instruction sent to the agent that performs the function; without it the agent only sees the inputs and the output contract. The spec still runs (the reference accepts it), but add a short intent describing the work.",
  example: {
    bad: "summarise:\n  mode: infer\n  input: {text: {type: string}}\n  output: Summary",
    good: 'summarise:\n  mode: infer\n  intent: "Summarise the text"\n  input: {text: {type: string}}\n  output: Summary',
  },
  message: (fn: string, mode: string) => `Function '${fn}' (mode '${mode}') must have a non-empty intent`,
  visit(on: RuleVisitor): void {
    on.onFunction((fn, { model, reporter }) => {
      // In 0.1 a missing intent is SCHEMA-REQUIRED.
      if (model.version === "0.1") return;
      if ((fn.mode !== "infer" && fn.mode !== "compute") || !lacks(fn, "intent")) return;
      reporter.report(SPEC_FN_INTENT_REQUIRED, {
        message: SPEC_FN_INTENT_REQUIRED.message(fn.name, fn.mode),
        path: functionPath(fn),
        range: entityRange(fn.decl),
      });
    });
  },
});
