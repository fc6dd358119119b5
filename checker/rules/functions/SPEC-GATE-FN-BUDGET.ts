// SPEC-GATE-FN-BUDGET: budgets limit agent work, and a gate dispatches no agent work.
import { defineRule } from "../../rule";
import { functionPath, has, keyOf } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_GATE_FN_BUDGET = defineRule({
  code: "SPEC-GATE-FN-BUDGET",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate function must not have a budget",
  doc: "A budget bounds the time or cost of agent work, but a gate function only waits for a human decision. Remove the budget key from the gate function.",
  example: { bad: "review:\n  mode: gate\n  budget: {ms: 60000}", good: "review:\n  mode: gate" },
  message: (fn: string) => `Gate function '${fn}' must not have a budget`,
  visit(on: RuleVisitor): void {
    on.onFunction((fn, { reporter }) => {
      if (fn.mode !== "gate" || !has(fn, "budget")) return;
      reporter.report(SPEC_GATE_FN_BUDGET, {
        message: SPEC_GATE_FN_BUDGET.message(fn.name),
        path: functionPath(fn, "budget"),
        range: keyOf(fn, "budget"),
      });
    });
  },
});
