// SPEC-REF-UNKNOWN-FIELD (docs/reference/language.md §8, docs/reference/language.md §9.5.5, docs/reference/language.md §10.12.4): a field segment after
// `$.steps.<id>.output` that the step's output contract (or a nested contract) does not declare.
import { defineRule } from "../../rule";

export const SPEC_REF_UNKNOWN_FIELD = defineRule({
  code: "SPEC-REF-UNKNOWN-FIELD",
  severity: "error",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title: "a $.steps reference reads a field the step's output contract does not declare",
  doc:
    "When a step's output is typed by a contract, every field segment of a `$.steps.<id>.output.<field>` " +
    "reference must be declared by that contract (or by the nested contract it leads to, or by the " +
    "step's output_schema properties). Fix the spelling or declare the field.",
  example: {
    bad: 'inputs: {s: "$.steps.review.output.scroe"}',
    good: 'inputs: {s: "$.steps.review.output.score"}',
  },
  fix: "Replaces the field segment of the reference with the one declared field close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the segment is written literally in the scalar (no escape or folded line break).",
  message: (ref: string, contract: string, field: string) =>
    `Reference '${ref}': contract '${contract}' has no field '${field}'`,
  /** A property-state record (`$.flow`, `$.steps.<id>`, the state's root): not a contract. */
  state: (ref: string, record: string, field: string, fields: readonly string[]) =>
    `Reference '${ref}': '${record}' has no field '${field}' (it has ${fields.join(", ")})`,
});
