// SPEC-GATE-FN-RETRIES: retries count submitted results, and a gate submits none.
import { defineRule } from "../../rule";
import { functionPath, has, keyOf } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_GATE_FN_RETRIES = defineRule({
  code: "SPEC-GATE-FN-RETRIES",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate function must not have retries",
  doc: "retries is the number of results a step may submit before it fails; a gate is resolved with approve, revise or kill and never submits a result. Remove retries from the gate function (use on_revise to send work back).",
  example: { bad: "review:\n  mode: gate\n  retries: 2", good: "review:\n  mode: gate" },
  message: (fn: string) => `Gate function '${fn}' must not have retries (gates produce no output to retry)`,
  visit(on: RuleVisitor): void {
    on.onFunction((fn, { reporter }) => {
      if (fn.mode !== "gate" || !has(fn, "retries")) return;
      reporter.report(SPEC_GATE_FN_RETRIES, {
        message: SPEC_GATE_FN_RETRIES.message(fn.name),
        path: functionPath(fn, "retries"),
        range: keyOf(fn, "retries"),
      });
    });
  },
});
