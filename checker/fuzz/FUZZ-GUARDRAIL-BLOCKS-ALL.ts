// FUZZ-GUARDRAIL-BLOCKS-ALL: a guardrail that matches every result a step's contract allows.
import { defineRule } from "../rule";

export const FUZZ_GUARDRAIL_BLOCKS_ALL = defineRule({
  code: "FUZZ-GUARDRAIL-BLOCKS-ALL",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "guardrail that blocks every result of its step",
  doc:
    'A guardrail pattern is searched in the JSON text of the result (sorted keys, `": "` after each ' +
    "key). This one is plain text that every result the step's contract allows holds — part of a " +
    "required field's key — so the step can never succeed: every attempt is blocked until its " +
    "retries run out. The fuzzer claims it only when it is provable that way, and with a run the " +
    "interpreter blocked. Make the pattern specific to what must not appear (a value, not a key).",
  example: {
    bad: 'contracts:\n  Reply: {password_hint: {type: string}}\n…\nguardrails: ["password"]',
    good: 'contracts:\n  Reply: {password_hint: {type: string}}\n…\nguardrails: ["password=\\\\S+"]',
  },
  message: (step: string, pattern: string, held: string, field: string) =>
    `guardrail '${pattern}' blocks every result of step '${step}': each one's JSON text holds '${held}' (the key of its required field '${field}'), so the step can never succeed`,
});
