// FUZZ-UNBOUNDED-LOOP: a loop that no counter bounds.
import { defineRule } from "../rule";

export const FUZZ_UNBOUNDED_LOOP = defineRule({
  code: "FUZZ-UNBOUNDED-LOOP",
  severity: "warning",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "loop that no counter bounds",
  doc:
    "On some run a step was dispatched far more often than retries, max_rounds and max_iterations " +
    "allow, through this route: nothing in the spec stops the agent (or the human) from going round " +
    "for ever. Bound it (max_rounds on the flow for revise loops; route a repeated failure elsewhere), " +
    "or keep it deliberately and say so in a comment (# stratum-ignore[FUZZ-UNBOUNDED-LOOP]: reason).",
  example: {
    bad: "- id: generate\n  on_fail: diagnose\n- id: diagnose\n  next: generate",
    good: "max_rounds: 3          # on the flow, for a gate's revise loop\n# or: route a repeated failure to a step that ends the flow",
  },
  message: (route: string, step: string, visits: number, bound: number) =>
    `${route} makes a loop that no counter bounds: step '${step}' was dispatched ${visits} times in one run (the spec's counters allow ${bound})`,
});
