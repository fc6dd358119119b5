// SCHEMA-FEATURE-UNSUPPORTED: extensions of the reference (guardrails, judges, run budgets, …).
import { strRepr } from "../../../stdlib/values/repr";
import { defineRule } from "../../rule";

export const SCHEMA_FEATURE_UNSUPPORTED = defineRule({
  code: "SCHEMA-FEATURE-UNSUPPORTED",
  severity: "error",
  family: "unsupported",
  errorType: "ir_validation_error",
  title: "An extension of the reference implementation is used",
  doc: "The keys guardrails, score_expr, task_reasoning_template and judge (steps), guardrails (functions), and max_agent_dispatches and max_tokens (budgets) belong to extensions of the reference implementation that are not provided here; silently ignoring them would change what the flow does. Remove the key; its value is not checked.",
  example: { bad: "budget: {ms: 1000, max_tokens: 5000}", good: "budget: {ms: 1000}" },
  message: (key: string) => `${strRepr(key)} is not supported by this implementation`,
  suggestion: (key: string) =>
    `Remove ${strRepr(key)}; this extension of the reference implementation is not provided`,
});
