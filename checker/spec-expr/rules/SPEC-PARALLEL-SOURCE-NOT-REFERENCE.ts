// SPEC-PARALLEL-SOURCE-NOT-REFERENCE: a parallel_dispatch step's `source` must be a `$` reference (version 0.3; the reference does not check it).
import { defineRule } from "../../rule";

export const SPEC_PARALLEL_SOURCE_NOT_REFERENCE = defineRule({
  code: "SPEC-PARALLEL-SOURCE-NOT-REFERENCE",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "A parallel_dispatch source is not a $ reference",
  doc: "The source of a parallel_dispatch step is resolved like a step input: a value that does not start with $ is a literal text, and a text is not a list of tasks, so every run of the step would fail. Write a $ reference to the task list, usually the tasks of a decompose step ($.steps.<id>.output.tasks) or an input ($.input.<name>).",
  example: {
    bad: 'source: "steps.plan.output.tasks"',
    good: 'source: "$.steps.plan.output.tasks"',
  },
  message: (step: string, source: string) =>
    `parallel_dispatch step '${step}' has source '${source}', which is not a $ reference: the task list would be that text`,
});
