// SPEC-STEP-DEAD: a step that a route names can never run.
import { defineRule } from "../../rule";

export const SPEC_STEP_DEAD = defineRule({
  code: "SPEC-STEP-DEAD",
  severity: "warning",
  family: "routing",
  errorType: "ir_semantic_error",
  title: "A step that a route names can never run",
  doc:
    "A route leads to the step, but no run ever takes that route: the step before it always leaves " +
    "by next (it falls through only when its skip_if skips it), the step that routes to it is " +
    "always skipped, a sub-flow it depends on never ends, or a gate's policy approves it on every " +
    "run. The diagnostic points at the cause; the dead step is its related place. " +
    "SPEC-STEP-UNREACHABLE covers steps no route names at all.",
  example: {
    bad: "- {id: a, intent: x, next: c}\n- {id: b, intent: never runs}\n- {id: c, intent: y}",
    good: "- {id: a, intent: x, next: c, on_fail: b}\n- {id: b, intent: recover, next: c}\n- {id: c, intent: y}",
  },
  message: (step: string, because: string) => `Step '${step}' can never run: ${because}`,
  related: (step: string) => `step '${step}' is declared here`,
});
