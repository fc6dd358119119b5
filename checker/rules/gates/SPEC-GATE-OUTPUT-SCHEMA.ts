// SPEC-GATE-OUTPUT-SCHEMA: a gate produces no result for a schema to validate.
import { defineRule } from "../../rule";
import type { RuleVisitor } from "../types";
import { reportGateField } from "./gate-field";

export const SPEC_GATE_OUTPUT_SCHEMA = defineRule({
  code: "SPEC-GATE-OUTPUT-SCHEMA",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate step must not have output_schema",
  doc: "output_schema validates the result a step submits, but a gate is resolved with approve, revise or kill and submits no result. Remove output_schema from the gate step.",
  example: {
    bad: "- {id: r, function: review, output_schema: {type: object}, on_approve: null, on_revise: a, on_kill: null}",
    good: "- {id: r, function: review, on_approve: null, on_revise: a, on_kill: null}",
  },
  message: (step: string) => `Gate step '${step}' may not have output_schema (gates produce no output)`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, context) =>
      reportGateField(
        step,
        context,
        SPEC_GATE_OUTPUT_SCHEMA,
        "output_schema",
        SPEC_GATE_OUTPUT_SCHEMA.message,
      ),
    );
  },
});
