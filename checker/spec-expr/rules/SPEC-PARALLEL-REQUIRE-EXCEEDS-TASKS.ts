// SPEC-PARALLEL-REQUIRE-EXCEEDS-TASKS: a parallel_dispatch step's `require: N` must not exceed a known maximum number of tasks
// (version 0.3; the reference does not check it).
import { defineRule } from "../../rule";

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
