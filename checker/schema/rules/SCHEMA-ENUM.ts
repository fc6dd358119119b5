// SCHEMA-ENUM: a value outside a fixed list (function mode, gate policy, workflow input type).
import { defineRule } from "../../rule";
import { reprList } from "./repr-list";

export const SCHEMA_ENUM = defineRule({
  code: "SCHEMA-ENUM",
  severity: "error",
  family: "schema",
  errorType: "ir_validation_error",
  title: "A value is not one of the allowed values",
  doc: "Some keys take one of a fixed set of words: mode (infer, compute, and gate in 0.2), policy and policy_fallback (gate, flag, skip), and the type of a workflow input. Use one of the listed values.",
  example: { bad: "mode: think", good: "mode: infer" },
  message: (value: string, allowed: readonly string[]) => `${value} is not one of ${reprList(allowed)}`,
  suggestion: (allowed: readonly string[]) => `Allowed values: ${reprList(allowed)}`,
});
