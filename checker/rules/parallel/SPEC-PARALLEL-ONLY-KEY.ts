// SPEC-PARALLEL-ONLY-KEY (the reference's D4, D5 and the ban on every other step): the keys of a
// parallel_dispatch step (source, isolation, require, merge, task_reasoning_template,
// task_timeout, max_concurrent, intent_template; our extensions member_contract and validate) on
// any other step.
import { keyRange } from "../../anchors";
import { defineRule } from "../../rule";
import { kindsOtherThan, stepPath } from "../support";
import type { RuleVisitor } from "../types";
import { given, PARALLEL_ONLY_KEYS } from "./keys";

export const SPEC_PARALLEL_ONLY_KEY = defineRule({
  code: "SPEC-PARALLEL-ONLY-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A key of parallel_dispatch steps on another step",
  doc: "source, intent_template, isolation, require, merge, task_timeout, max_concurrent and task_reasoning_template (and the stratumc extensions member_contract and validate) describe how a parallel_dispatch step fans out and judges its tasks; on any other step they would do nothing, so the reference rejects them (and stratumc its extensions). Remove the key, or make the step a parallel_dispatch step (type: parallel_dispatch). A null value counts as absent.",
  example: {
    bad: "- {id: review, intent: Review the change, max_concurrent: 2}",
    good: "- {id: review, intent: Review the change}",
  },
  message: (step: string, key: string) => `Step '${step}' has '${key}' but is not a parallel_dispatch step`,
  /** The reference's wording for intent_template on a decompose step (no quotes around the key). */
  decomposeTemplateMessage: (step: string) =>
    `Step '${step}' has intent_template but is not a parallel_dispatch step`,
  visit(on: RuleVisitor): void {
    on.onStep(kindsOtherThan("parallel_dispatch"), (step, { reporter }) => {
      const decompose = step.kind === "decompose";
      const keys = decompose
        ? ["intent_template", ...PARALLEL_ONLY_KEYS]
        : [...PARALLEL_ONLY_KEYS, "intent_template"];
      for (const key of keys) {
        // On a decompose step the reference tests intent_template for a non-empty value; every
        // other test is "present and not null".
        const emptyTemplate = decompose && key === "intent_template" && step.string(key)?.value === "";
        if (!given(step, key) || emptyTemplate) continue;
        const entry = step.entry(key);
        if (entry === undefined) continue;
        reporter.report(SPEC_PARALLEL_ONLY_KEY, {
          message:
            decompose && key === "intent_template"
              ? SPEC_PARALLEL_ONLY_KEY.decomposeTemplateMessage(step.id)
              : SPEC_PARALLEL_ONLY_KEY.message(step.id, key),
          path: stepPath(step, key),
          range: keyRange(entry),
          suggestion: `Remove '${key}', or make '${step.id}' a parallel_dispatch step (type: parallel_dispatch)`,
        });
      }
    });
  },
});
