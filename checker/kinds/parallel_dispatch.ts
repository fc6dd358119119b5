// A parallel_dispatch step (type: parallel_dispatch, version 0.3): one task per item of its
// `source`, each told what to do by its `intent_template`, judged together.
import { recordOf } from "../../stdlib/types/type";
import { defineRule } from "../rule";
import { DEFAULT_PARALLEL_STEP_RETRIES } from "../schema/spec-schema";
import { given, PARALLEL_ONLY_KEYS } from "./parallel_dispatch/keys";
import { parallelResultRecord } from "./parallel_dispatch/result";
import { addKey, missingOrEmpty, stepOutputContract } from "./shared";
import type { CheckerKind, ForeignKey } from "./types";

/** The parallel keys nothing reads on a pipeline step (stratumc's extensions of parallel_dispatch). */
const PIPELINE_REFUSED = ["member_contract", "validate"] as const;

const EXAMPLES = {
  source: '"$.steps.<decompose step>.output.tasks"',
  intent_template: '"Implement {task.description}"',
} as const;

const SPEC_PARALLEL_MISSING_KEY = defineRule({
  code: "SPEC-PARALLEL-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A parallel_dispatch step lacks source or intent_template",
  doc: "A parallel_dispatch step runs one task per item of its source list, each with the instruction its intent_template gives. Without a source there are no tasks, without an intent_template nothing to tell them. Add the missing key with a non-empty value.",
  example: {
    bad: '- {id: run, type: parallel_dispatch, intent_template: "Do {task.description}"}',
    good: '- {id: run, type: parallel_dispatch, source: "$.steps.plan.output.tasks", intent_template: "Do {task.description}", depends_on: [plan]}',
  },
  message: (step: string, key: string) => `parallel_dispatch step '${step}' must have '${key}'`,
});

// The reference's D4, D5 and the ban on every other step.
const SPEC_PARALLEL_ONLY_KEY = defineRule({
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
});

export const PARALLEL_DISPATCH_KIND: CheckerKind = {
  ownKeys: [
    "source",
    "intent_template",
    "max_concurrent",
    "isolation",
    "require",
    "merge",
    "task_timeout",
    "capture_diff",
    "defer_advance",
    "pre_merge_verify",
    "task_reasoning_template",
    "member_contract",
    "validate",
  ],
  notOffered: ["intent", "reasoning_template"],
  requiredKeys: {
    rule: SPEC_PARALLEL_MISSING_KEY,
    missing: (step) =>
      Object.entries(EXAMPLES)
        .filter(([key]) => missingOrEmpty(step, key))
        .map(([key, example]) => addKey(step, key, example)),
  },
  exclusiveKeys: {
    rule: SPEC_PARALLEL_ONLY_KEY,
    found(step) {
      // The reference tests a decompose step's intent_template first, for a non-empty value, in
      // its own wording; every other test is "present and not null".
      // A pipeline takes the reference's parallel keys; its step-level intent_template has a rule
      // of its own (SPEC-PIPELINE-STEP-TEMPLATE). stratumc's extensions stay refused there.
      if (step.kind === "pipeline")
        return PIPELINE_REFUSED.filter((key) => given(step, key)).map((key) => ({ key }));
      const decompose = step.kind === "decompose";
      const keys = decompose
        ? ["intent_template", ...PARALLEL_ONLY_KEYS]
        : [...PARALLEL_ONLY_KEYS, "intent_template"];
      const out: ForeignKey[] = [];
      for (const key of keys) {
        const template = decompose && key === "intent_template";
        if (!given(step, key) || (template && step.string(key)?.value === "")) continue;
        out.push(
          template ? { key, message: SPEC_PARALLEL_ONLY_KEY.decomposeTemplateMessage(step.id) } : { key },
        );
      }
      return out;
    },
  },
  memberList: null,
  expressions: ["source", "validate"],
  resultType: () => recordOf(parallelResultRecord()),
  outputContract: stepOutputContract,
  retries: { from: "step", default: DEFAULT_PARALLEL_STEP_RETRIES },
  irPart: "parallel",
  stratumcOnly: null,
};
