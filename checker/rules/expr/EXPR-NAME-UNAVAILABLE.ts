// EXPR-NAME-UNAVAILABLE (docs/reference/language.md §9.5.5): a rule of the expression checker, built through MESSAGES
// (checker/messages.ts) wherever the expression phase reports it.
import { defineRule } from "../../rule";

export const EXPR_NAME_UNAVAILABLE = defineRule({
  code: "EXPR-NAME-UNAVAILABLE",
  family: "expr-name",
  errorType: "ir_semantic_error",
  title:
    "The name exists in the language but is not bound in this expression position: `result` is not bound in `skip_if` (the step has not run) nor in `accumulate_key` (which sees `item`); `item` only in `accumulate_key`; the accumulator names only in the `exit_criterion` of a step with `accumulate`.",
  severity: "error",
  message: (name: string, kind: string | undefined, reason: string) =>
    `name '${name}' is not available in ${kind === undefined ? "these" : kind} expressions (${reason})`,
  doc: "The name exists in the language but is not bound in this expression position: `result` is not bound in `skip_if` (the step has not run) nor in `accumulate_key` (which sees `item`); `item` only in `accumulate_key`; the accumulator names only in the `exit_criterion` of a step with `accumulate`. Read an earlier step's output with a `$.steps.<id>.output` path instead of `result`, use `item` only in accumulate_key, and declare accumulate on a step whose exit_criterion reads the accumulator names.",
  example: {
    bad: "skip_if: \"result.text != ''\"",
    good: "skip_if: \"$.steps.draft.output.text != ''\"",
  },
});
