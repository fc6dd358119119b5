// SPEC-FN-TIMEOUT-NOT-GATE: `timeout` only drives the auto-kill of a waiting gate.
import { defineRule } from "../../rule";
import { functionPath, has, keyOf } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_FN_TIMEOUT_NOT_GATE = defineRule({
  code: "SPEC-FN-TIMEOUT-NOT-GATE",
  severity: "warning",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "timeout on a non-gate function has no effect",
  doc: "timeout is the number of seconds after which a pending gate may be killed automatically; infer and compute functions never wait on a gate, so the value is ignored. Remove it, or move it to the gate function it was meant for.",
  example: {
    bad: "write:\n  mode: infer\n  output: Draft\n  timeout: 600",
    good: "write:\n  mode: infer\n  output: Draft",
  },
  message: (fn: string) => `Function '${fn}' has timeout, which only applies to gate functions`,
  visit(on: RuleVisitor): void {
    on.onFunction((fn, { reporter }) => {
      if ((fn.mode !== "infer" && fn.mode !== "compute") || !has(fn, "timeout")) return;
      reporter.report(SPEC_FN_TIMEOUT_NOT_GATE, {
        message: SPEC_FN_TIMEOUT_NOT_GATE.message(fn.name),
        path: functionPath(fn, "timeout"),
        range: keyOf(fn, "timeout"),
      });
    });
  },
});
