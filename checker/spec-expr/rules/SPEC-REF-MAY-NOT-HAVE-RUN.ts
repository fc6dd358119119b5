// SPEC-REF-MAY-NOT-HAVE-RUN (docs/reference/language.md §8, docs/reference/language.md §9.5.5): an expression reads `$.steps.<id>.output` of a
// step that is not a transitive dependency of the evaluating step (or of the step itself), so the
// output may be missing when the expression runs. References in expressions add no dependency edge.
import { defineRule } from "../../rule";

export const SPEC_REF_MAY_NOT_HAVE_RUN = defineRule({
  code: "SPEC-REF-MAY-NOT-HAVE-RUN",
  severity: "warning",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "an expression reads the output of a step that may not have run yet",
  doc:
    "Only `$.steps` references in step inputs order the flow; a reference inside skip_if, ensure or " +
    "the iteration expressions does not. If the referenced step is not a (transitive) dependency, " +
    "its output may be missing and the path reads None. Add the step to depends_on.",
  example: {
    bad: "- {id: b, intent: y, skip_if: '$.steps.a.output.skip'}",
    good: "- {id: b, intent: y, depends_on: [a], skip_if: '$.steps.a.output.skip'}",
  },
  message: (ref: string, step: string, kind: string, id: string) =>
    `'${ref}' may not have run when step '${step}' evaluates ${kind}: '${id}' is not a dependency of '${step}' (add it to depends_on)`,
  self: (ref: string, step: string, kind: string) =>
    `'${ref}' reads step '${step}' itself, whose output is not stored when ${kind} is evaluated`,
  related: (id: string) => `'${id}' is declared here`,
});
