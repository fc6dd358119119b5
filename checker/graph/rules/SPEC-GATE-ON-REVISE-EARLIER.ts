// SPEC-GATE-ON-REVISE-EARLIER: a gate's on_revise target must execute before the gate
// (docs/reference/language.md §9.5.4, DIV-ON-REVISE-ORDER): positions in the real execution order, over
// depends_on and input references. Checked only when the target exists, is not the gate itself
// (SPEC-GATE-ON-REVISE-SELF) and the flow has no cycle.
import { stepEntityRange, valueRange } from "../../anchors";
import type { FlowDecl, SpecModel } from "../../model/types";
import type { Reporter } from "../../report";
import { defineRule } from "../../rule";
import type { SemanticRule } from "../../rules/types";
import { executionOf, stepsSeq } from "./execution";
import { stepPath } from "./paths";

export const SPEC_GATE_ON_REVISE_EARLIER = defineRule({
  code: "SPEC-GATE-ON-REVISE-EARLIER",
  severity: "error",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate's on_revise target does not execute before the gate",
  doc:
    "Revising a gate sends the flow back to earlier work, so on_revise must name a step that runs " +
    "before the gate in the flow's execution order (declaration order refined by depends_on and " +
    "$.steps references). Point on_revise at an earlier step, or make the gate depend on it.",
  example: {
    bad: "- {id: r, function: review, on_approve: null, on_kill: null, on_revise: a}\n- {id: a, intent: x, depends_on: [r]}",
    good: "- {id: a, intent: x}\n- {id: r, function: review, on_approve: null, on_kill: null, on_revise: a}",
  },
  message: (s: string, t: string) =>
    `Gate step '${s}' on_revise must target a topologically-earlier step, but '${t}' executes at or after '${s}'`,
  related: (t: string) => `'${t}' is declared here`,
  check(model: SpecModel, reporter: Reporter): void {
    for (const flow of model.flows) checkFlow(model, flow, reporter);
  },
}) satisfies SemanticRule;

function checkFlow(model: SpecModel, flow: FlowDecl, reporter: Reporter): void {
  const gates = flow.steps.filter((s) => s.kind === "gate" && s.id !== null);
  if (gates.length === 0) return;
  const execution = executionOf(flow);
  const seq = stepsSeq(flow);
  if (execution === null || seq === null) return;
  for (const gate of gates) {
    const field = gate.nullableString("on_revise");
    const t = field?.value;
    if (field === null || t === null || t === undefined || gate.id === null || t === gate.id) continue;
    const target = flow.stepById.get(t);
    const at = execution.position.get(gate);
    const to = target === undefined ? undefined : execution.position.get(target);
    if (target === undefined || at === undefined || to === undefined || to < at) continue;
    reporter.report(SPEC_GATE_ON_REVISE_EARLIER, {
      message: SPEC_GATE_ON_REVISE_EARLIER.message(gate.id, t),
      path: `${stepPath(flow.name, gate.id)}.on_revise`,
      range: valueRange(model.source, field.entry),
      related: [
        {
          message: SPEC_GATE_ON_REVISE_EARLIER.related(t),
          path: stepPath(flow.name, t),
          range: stepEntityRange(model.source, seq, target.index),
        },
      ],
    });
  }
}
