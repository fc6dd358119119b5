// SPEC-GATE-FN-ENSURE: a gate function has no output, so it has nothing to check.
import { valueRange } from "../../anchors";
import { defineRule } from "../../rule";
import { functionEnsureMisplaced } from "../placement";
import { functionPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_GATE_FN_ENSURE = defineRule({
  code: "SPEC-GATE-FN-ENSURE",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate function must not have ensure expressions",
  doc: "A gate step is resolved by a person (approve, revise or kill) and produces no result, so postconditions on its function can never be evaluated. Remove the ensure list from the gate function, or make it an infer/compute function if it should produce checked output.",
  example: { bad: 'review:\n  mode: gate\n  ensure: ["result.approved"]', good: "review:\n  mode: gate" },
  message: (fn: string) => `Gate function '${fn}' must not have ensure expressions`,
  visit(on: RuleVisitor): void {
    on.onFunction((fn, { model, reporter }) => {
      const entry = fn.entry("ensure");
      if (entry === undefined || !functionEnsureMisplaced(fn)) return;
      reporter.report(SPEC_GATE_FN_ENSURE, {
        message: SPEC_GATE_FN_ENSURE.message(fn.name),
        path: functionPath(fn, "ensure"),
        range: valueRange(model.source, entry),
      });
    });
  },
});
