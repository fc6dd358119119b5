// SPEC-PIPELINE-PREDICATE-PATH: a pipeline stage's `when` / `exit_when` is evaluated over one
// element's chain only; `$` paths are not bound there (the reference fails to compile them).
import { defineRule } from "../../rule";

export const SPEC_PIPELINE_PREDICATE_PATH = defineRule({
  code: "SPEC-PIPELINE-PREDICATE-PATH",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A $ path in a pipeline stage's when or exit_when",
  doc: "The routing predicates of a pipeline stage see only item and the previous stage's (when) or this stage's (exit_when) output; the reference compiles them without $ paths and rejects the spec. Pass what the predicate needs through the source elements instead, or test it in a skip_if of the step.",
  example: {
    bad: 'stages: [{intent_template: "Review {item}", when: "$.input.strict"}]',
    good: 'stages: [{intent_template: "Review {item}", when: "item[\'strict\']"}]',
  },
  message: (step: string, stage: number, field: string, path: string) =>
    `pipeline step '${step}' stage ${stage} has invalid '${field}': '${path}' is not bound in a stage predicate (only its own names are)`,
});
