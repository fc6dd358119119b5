// The static checks of a parallel_dispatch step's task list (version 0.3; the reference checks none
// of them): `source` must be a `$` reference to a list, the intent_template placeholders should name
// fields a task can have, and `require: N` must not exceed a known maximum number of tasks.
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

export const SPEC_PARALLEL_TEMPLATE_FIELD = defineRule({
  code: "SPEC-PARALLEL-TEMPLATE-FIELD",
  severity: "warning",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "An intent_template placeholder names no field of the tasks",
  doc: "In a parallel_dispatch step's intent_template, {task.<field>} and {<field>} are replaced by the task's field. When the tasks have a known contract and the field is not in it, the placeholder is usually misspelt; at run time it is left as written (extra task fields are allowed, so this is not an error). Correct the field name.",
  example: {
    bad: 'intent_template: "Implement {task.descripton}"',
    good: 'intent_template: "Implement {task.description}"',
  },
  message: (placeholder: string, contract: string) =>
    `intent_template placeholder '${placeholder}' names no field of ${contract}; it is left as written`,
});

export const SPEC_PARALLEL_REQUIRE_EXCEEDS_TASKS = defineRule({
  code: "SPEC-PARALLEL-REQUIRE-EXCEEDS-TASKS",
  severity: "error",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "require asks for more tasks than the source can hold",
  doc: "require: N asks for at least N completed tasks. When the source list has a known maximum length (maxItems in the output_schema of the step it reads), a larger N can never be met and every run of the step fails. Lower require, or raise maxItems.",
  example: {
    bad: "require: 5   # the source's output_schema says maxItems: 3",
    good: "require: 3",
  },
  message: (step: string, require: number, max: number) =>
    `Step '${step}' requires ${require} completed tasks but its source holds at most ${max} (maxItems)`,
});
