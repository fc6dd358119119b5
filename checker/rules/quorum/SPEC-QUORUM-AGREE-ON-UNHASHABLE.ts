// SPEC-QUORUM-AGREE-ON-UNHASHABLE: runs of a quorum step are grouped by their agree_on values as
// dict keys are, so a key whose static type is a list or a mapping can never be grouped.
// Reported by the expression phase (checker/spec-expr/quorum-agree-on.ts), which knows the type.
import { defineRule } from "../../rule";

export const SPEC_QUORUM_AGREE_ON_UNHASHABLE = defineRule({
  code: "SPEC-QUORUM-AGREE-ON-UNHASHABLE",
  severity: "error",
  family: "expr-type",
  errorType: "ir_semantic_error",
  title: "A quorum agree_on whose value can never be a grouping key",
  doc: "A quorum step groups its runs by the value agree_on gives for each run's result; equal values are one group, as equal keys are one entry of a dict. A list, a dict or a whole contract record cannot be such a key. Vote on a scalar field instead (result.severity), or on something computed from the list (result.labels[0], len(result.labels), ' '.join(result.labels)).",
  example: {
    bad: 'agree_on: "result.labels"   # labels: {type: array}',
    good: "agree_on: \"' '.join(result.labels)\"",
  },
  message: (step: string, type: string) =>
    `agree_on of quorum step '${step}' has type ${type}, which cannot be a grouping key (unhashable)`,
});
