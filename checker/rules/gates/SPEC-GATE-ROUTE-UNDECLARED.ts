// SPEC-GATE-ROUTE-UNDECLARED: a gate must say where approve and kill lead, even if nowhere.
import { defineRule } from "../../rule";
import { lacks, stepEntity, stepPath } from "../support";
import type { RuleVisitor } from "../types";
import { insertNullField } from "./insert-field";

const ROUTES = ["on_approve", "on_kill"] as const;

export const SPEC_GATE_ROUTE_UNDECLARED = defineRule({
  code: "SPEC-GATE-ROUTE-UNDECLARED",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate step must declare on_approve and on_kill",
  doc: "Every gate step must state where the flow goes when the gate is approved and when it is killed, so that the terminal behaviour is a visible decision. Write the target step id, or null to end the flow (approve completes it, kill ends it as killed).",
  example: {
    bad: "- {id: r, function: review, on_revise: a}",
    good: "- {id: r, function: review, on_revise: a, on_approve: null, on_kill: null}",
  },
  fix: "Inserts each missing route as on_approve: null or on_kill: null (ending the flow there): on a new line after the gate step's last line, indented like its keys, or before the closing brace of a flow-style step.",
  message: (step: string, field: string) =>
    `Gate step '${step}' must explicitly declare '${field}' (use null for default terminal behaviour)`,
  fixDescription: (field: string) => `Insert '${field}: null'`,
  visit(on: RuleVisitor): void {
    on.onStep(["gate"], (step, { model, reporter }) => {
      for (const field of ROUTES) {
        if (!lacks(step, field)) continue;
        const edit = insertNullField(model.source, step.node, field);
        reporter.report(SPEC_GATE_ROUTE_UNDECLARED, {
          message: SPEC_GATE_ROUTE_UNDECLARED.message(step.id, field),
          path: stepPath(step, field),
          range: stepEntity(model, step),
          ...(edit === null
            ? {}
            : { fix: { description: SPEC_GATE_ROUTE_UNDECLARED.fixDescription(field), edits: [edit] } }),
        });
      }
    });
  },
});
