// SPEC-GATE-MAX-ITERATIONS: the iteration loop is for working steps; gates loop through revise.
import { defineRule } from "../../rule";
import type { RuleVisitor } from "../types";
import { reportGateField } from "./gate-field";

export const SPEC_GATE_MAX_ITERATIONS = defineRule({
  code: "SPEC-GATE-MAX-ITERATIONS",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate step must not have max_iterations",
  doc: "max_iterations enables the advisory iteration loop of a working step. A gate repeats work through its on_revise route instead (bounded by the flow's max_rounds). Remove max_iterations from the gate step.",
  example: {
    bad: "- {id: r, function: review, max_iterations: 3, on_approve: null, on_revise: a, on_kill: null}",
    good: "- {id: r, function: review, on_approve: null, on_revise: a, on_kill: null}",
  },
  message: (step: string) =>
    `Gate step '${step}' must not have max_iterations (gates have their own revise cycle)`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, context) =>
      reportGateField(
        step,
        context,
        SPEC_GATE_MAX_ITERATIONS,
        "max_iterations",
        SPEC_GATE_MAX_ITERATIONS.message,
      ),
    );
  },
});
