// FUZZ-UNBOUNDED-LOOP: a loop that no counter bounds.
import { defineRule } from "../rule";

export const FUZZ_UNBOUNDED_LOOP = defineRule({
  code: "FUZZ-UNBOUNDED-LOOP",
  severity: "warning",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "loop that no counter bounds",
  doc:
    "On some run a step was dispatched through this route more than twice (plus two) as often as its " +
    "attempts (retries) in each round (max_rounds + 1) allow: nothing in the spec stops the agent from " +
    "going round for ever. Retrying a step within its retries, and a gate's revise loop (each round is " +
    "a person's decision), are never reported. Bound it (route a repeated failure to a step that ends the " +
    "flow), or keep it deliberately and say so in a comment (# stratum-ignore[FUZZ-UNBOUNDED-LOOP]: reason).",
  example: {
    bad: "- id: generate\n  on_fail: diagnose\n- id: diagnose\n  next: generate",
    good: '- id: generate\n  on_fail: report      # a repeated failure ends the flow\n- id: report\n  intent: "Say why no patch passed"',
  },
  message: (route: string, step: string, visits: number, allowance: string) =>
    `${route} makes a loop that no counter bounds: step '${step}' was dispatched ${visits} times in one run; ${allowance}`,
});
