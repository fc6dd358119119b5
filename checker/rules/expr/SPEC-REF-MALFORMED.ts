// SPEC-REF-MALFORMED (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { strRepr } from "../../../stdlib/values/repr";
import { defineRule } from "../../rule";

export const SPEC_REF_MALFORMED = defineRule({
  code: "SPEC-REF-MALFORMED",
  family: "reference",
  errorType: "ir_semantic_error",
  title:
    "A `$` reference must have the form `$.input.<name>[.<field>\u2026]` or `$.steps.<id>.output[.<field>\u2026]`.",
  severity: "error",
  message: (ref: string) => malformedReferenceMessage(ref),
  doc: "A `$` reference must have the form `$.input.<name>[.<field>…]` or `$.steps.<id>.output[.<field>…]`. The message names what is missing: a name after `$.input`, the `output` segment after the step id, or a known prefix (`input`, `steps`). A step input value that starts with `$` is always read as a reference, so a literal text must not start with `$` (`$5 budget`).",
  example: {
    bad: 'inputs: {outline: "$.steps.outline"}',
    good: 'inputs: {outline: "$.steps.outline.output"}',
  },
});

/** The reference implementation's resolution message for a malformed `$` reference (docs/reference/language.md §9.5.5). */
export function malformedReferenceMessage(ref: string): string {
  const rest = ref.slice(2);
  if (rest === "") return `Empty $ reference: ${strRepr(ref)}`;
  const parts = rest.split(".");
  const head = parts[0] ?? "";
  if (head === "input" && ref.startsWith("$.")) return `$.input requires a field name: ${strRepr(ref)}`;
  if (head === "steps" && ref.startsWith("$.")) {
    if (parts.length < 3 || parts[1] === "") return `$.steps requires $.steps.<id>.output: ${strRepr(ref)}`;
    return `Expected '$.steps.<id>.output[.<field>]', got ${strRepr(ref)}`;
  }
  return `Unknown $ prefix '${head}' in ${strRepr(ref)}`;
}
