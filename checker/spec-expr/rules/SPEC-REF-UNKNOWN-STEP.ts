// SPEC-REF-UNKNOWN-STEP (docs/reference/language.md §8, docs/reference/language.md §9.5.5): `$.steps.<id>` names no step of the flow. Checked
// in step inputs and in every expression; the anchor is the id segment inside the scalar.
import { defineRule } from "../../rule";

export const SPEC_REF_UNKNOWN_STEP = defineRule({
  code: "SPEC-REF-UNKNOWN-STEP",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "a $.steps reference names a step that does not exist in the flow",
  doc:
    "A `$.steps.<id>.output` reference reads the output of a step of the same flow, so `<id>` must be " +
    "the id of one of its steps. Fix the spelling (a close match is suggested) or add the step.",
  example: {
    bad: 'inputs: {draft: "$.steps.writ.output"}',
    good: 'inputs: {draft: "$.steps.write.output"}',
  },
  fix: "Replaces the id segment of the reference with the one step id of the flow close to it (a case-insensitive edit distance of at most a third of its length, and at least 1), when exactly one is that close and the segment is written literally in the scalar (no escape or folded line break).",
  message: (ref: string, id: string, flow: string) =>
    `Reference '${ref}' names unknown step '${id}' in flow '${flow}'`,
  /** A property's `$.gates.<id>` naming a step of the flow that is not a gate. */
  notGate: (ref: string, id: string, flow: string, gates: readonly string[]) =>
    `Reference '${ref}': '${id}' is a step of flow '${flow}', not a gate (${gates.length === 0 ? "the flow has no gate steps" : `gates: ${gates.join(", ")}`})`,
});
