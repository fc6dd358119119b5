// SPEC-GATE-FN-GUARDRAILS: guardrails scan a result, and a gate produces none.
import { defineRule } from "../../rule";
import { functionPath, has, keyOf } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_GATE_FN_GUARDRAILS = defineRule({
  code: "SPEC-GATE-FN-GUARDRAILS",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate function must not have guardrails",
  doc: "Guardrails are patterns searched in a step's result, but a gate function produces no result: it only waits for a human decision. Remove the guardrails key from the gate function, or put the patterns on the function whose output the gate reviews.",
  example: { bad: "review:\n  mode: gate\n  guardrails: ['secret']", good: "review:\n  mode: gate" },
  message: (fn: string) => `Gate function '${fn}' must not have guardrails (gates produce no output to scan)`,
  visit(on: RuleVisitor): void {
    on.onFunction((fn, { reporter }) => {
      if (fn.mode !== "gate" || !has(fn, "guardrails")) return;
      reporter.report(SPEC_GATE_FN_GUARDRAILS, {
        message: SPEC_GATE_FN_GUARDRAILS.message(fn.name),
        path: functionPath(fn, "guardrails"),
        range: keyOf(fn, "guardrails"),
      });
    });
  },
});
