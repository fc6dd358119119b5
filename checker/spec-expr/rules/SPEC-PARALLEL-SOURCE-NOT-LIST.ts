// SPEC-PARALLEL-SOURCE-NOT-LIST: a parallel_dispatch step's `source` must refer to a list (version 0.3; the reference does not check it).
import { defineRule } from "../../rule";

export const SPEC_PARALLEL_SOURCE_NOT_LIST = defineRule({
  code: "SPEC-PARALLEL-SOURCE-NOT-LIST",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A parallel_dispatch source is not a list",
  doc: "The source of a parallel_dispatch step must resolve to the list of tasks. When the static type of the reference is known (a contract field, a declared input type) and is not a list, every dispatch fails. Point the reference at the list itself, e.g. $.steps.plan.output.tasks rather than $.steps.plan.output.",
  example: {
    bad: 'source: "$.steps.plan.output"',
    good: 'source: "$.steps.plan.output.tasks"',
  },
  message: (step: string, source: string, type: string) =>
    `parallel_dispatch step '${step}' has source '${source}' of type ${type}, not a list of tasks`,
});
