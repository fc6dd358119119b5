// SPEC-PARALLEL-UNSUPPORTED-KEY (the reference's C3): decompose and parallel_dispatch steps do not
// run the iteration loop, so accumulate / accumulate_key would never run. (C2, score_expr, is an
// extension not provided here at all: SCHEMA-FEATURE-UNSUPPORTED reports it on every step.)
import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import { typedKindAccumulateFields } from "../placement";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

export const SPEC_PARALLEL_UNSUPPORTED_KEY = defineRule({
  code: "SPEC-PARALLEL-UNSUPPORTED-KEY",
  severity: "error",
  family: "iteration",
  errorType: "ir_semantic_error",
  title: "accumulate or accumulate_key on a decompose or parallel_dispatch step",
  doc: "Decompose and parallel_dispatch steps do not run the per-step iteration loop, so there is nothing to accumulate across iterations. Remove accumulate and accumulate_key, or move them to an inline step with max_iterations.",
  example: {
    bad: "- {id: plan, type: decompose, agent: claude, intent: Plan, output_contract: TaskGraph, accumulate: result.tasks}",
    good: "- {id: plan, type: decompose, agent: claude, intent: Plan, output_contract: TaskGraph}",
  },
  message: (step: string, kind: string) =>
    `Step '${step}' has accumulate/accumulate_key but is a ${kind} step — accumulate is not supported on ${kind} steps`,
  visit(on: RuleVisitor): void {
    on.onStep((step, { reporter }) => {
      const [first] = typedKindAccumulateFields(step);
      const entry = first === undefined ? undefined : step.entry(first);
      if (first === undefined || entry === undefined || step.kind === null) return;
      // One diagnostic per step, at accumulate when present (the reference's path).
      reporter.report(SPEC_PARALLEL_UNSUPPORTED_KEY, {
        message: SPEC_PARALLEL_UNSUPPORTED_KEY.message(step.id, step.kind),
        path: stepPath(step, "accumulate"),
        range: keyRange(entry),
        suggestion: "Remove accumulate and accumulate_key from this step",
      });
    });
  },
});
