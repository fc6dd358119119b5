// SPEC-REF-UNDECLARED-INPUT (docs/reference/language.md §8, docs/reference/language.md §9.5.5): `$.input.<name>` names an input the flow does
// not declare. The anchor is the name segment inside the scalar.
import { defineRule } from "../../rule";

export const SPEC_REF_UNDECLARED_INPUT = defineRule({
  code: "SPEC-REF-UNDECLARED-INPUT",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "a $.input reference names an input the flow does not declare",
  doc:
    "A `$.input.<name>` reference reads a flow input, so `<name>` must be a key of the flow's `input` " +
    "mapping. Fix the spelling (a close match is suggested) or declare the input.",
  example: {
    bad: 'flows: {f: {input: {text: {type: string}}, steps: [{id: a, intent: x, inputs: {t: "$.input.txt"}}]}}',
    good: 'flows: {f: {input: {text: {type: string}}, steps: [{id: a, intent: x, inputs: {t: "$.input.text"}}]}}',
  },
  fix: "Replaces the name segment of the reference with the one declared input of the flow close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the segment is written literally in the scalar (no escape or folded line break).",
  message: (ref: string, name: string, flow: string) =>
    `Reference '${ref}' names input '${name}', which flow '${flow}' does not declare`,
});
