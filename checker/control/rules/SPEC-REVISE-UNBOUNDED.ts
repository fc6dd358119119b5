// SPEC-REVISE-UNBOUNDED: a gate's on_revise loop has no bound.
import { defineRule } from "../../rule";

export const SPEC_REVISE_UNBOUNDED = defineRule({
  code: "SPEC-REVISE-UNBOUNDED",
  severity: "info",
  family: "gate",
  errorType: "ir_semantic_error",
  title: "A gate's on_revise loop has no bound",
  doc:
    "The gate can send the flow back with on_revise, and the flow has no max_rounds: the loop " +
    "ends only when a human approves or kills, and every round needs one. Set max_rounds on the " +
    "flow to bound it (a revise past it is refused and the gate waits for approve or kill).",
  example: {
    bad: "flows:\n  main:\n    steps:\n      - {id: draft, intent: write}\n      - {id: ok, function: approve, on_approve: null, on_revise: draft, on_kill: null}",
    good: "flows:\n  main:\n    max_rounds: 3\n    steps:\n      - {id: draft, intent: write}\n      - {id: ok, function: approve, on_approve: null, on_revise: draft, on_kill: null}",
  },
  message: (gate: string, target: string, flow: string) =>
    `Gate '${gate}' revises back to '${target}' without a bound: flow '${flow}' has no max_rounds, so every round needs a human`,
});
