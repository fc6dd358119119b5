// A pipeline step (type: pipeline, reference 0.2.69, docs/reference/language.md §6.9): every element
// of its `source` goes through the ordered `stages`, each element on its own.
import { recordOf } from "../../stdlib/types/type";
import { isTypedStepKind } from "../base/step-kinds";
import { defineRule } from "../rule";
import { DEFAULT_PARALLEL_STEP_RETRIES } from "../schema/spec-schema";
import { given } from "./parallel_dispatch/keys";
import { pipelineResultRecord } from "./pipeline/result";
import { addKey, missingOrEmpty, stepOutputContract } from "./shared";
import type { CheckerKind, IdStep, MissingKey } from "./types";

const SPEC_PIPELINE_MISSING_KEY = defineRule({
  code: "SPEC-PIPELINE-MISSING-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "A pipeline step lacks source or stages",
  doc: "A pipeline step runs its stages over every element of its source list: without a source there are no elements, without a non-empty stages list nothing to run. Add the missing key.",
  example: {
    bad: '- {id: review, type: pipeline, stages: [{intent_template: "Review {item}"}]}',
    good: '- {id: review, type: pipeline, source: "$.input.files", stages: [{intent_template: "Review {item}"}]}',
  },
  message: (step: string, key: string) =>
    key === "stages"
      ? `pipeline step '${step}' must have a non-empty 'stages' list`
      : `pipeline step '${step}' must have '${key}'`,
});

const SPEC_PIPELINE_ONLY_KEY = defineRule({
  code: "SPEC-PIPELINE-ONLY-KEY",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "stages on a step that is not a pipeline step",
  doc: "stages lists the stages of a pipeline step (type: pipeline); on any other step nothing runs them, so the reference rejects the key. Remove it, or make the step a pipeline step. The reference words the message for a function, inline or sub-flow step as for its parallel_dispatch keys ('is not a parallel_dispatch step'); stratumc keeps that wording. A null value counts as absent.",
  example: {
    bad: '- {id: review, type: parallel_dispatch, source: "$.input.files", intent_template: "Review {item}", stages: [{intent_template: "x"}]}',
    good: '- {id: review, type: pipeline, source: "$.input.files", stages: [{intent_template: "Review {item}"}]}',
  },
  message: (step: string, key: string) => `Step '${step}' has '${key}' but is not a pipeline step`,
  /** The reference's wording on a function, gate, inline or sub-flow step. */
  legacyMessage: (step: string) => `Step '${step}' has 'stages' but is not a parallel_dispatch step`,
});

/** `stages` is missing when absent or null (`[]` is a structural error, reported already). */
function missingStages(step: IdStep): MissingKey[] {
  if (given(step, "stages") || (step.entry("stages") !== undefined && !step.valid("stages"))) return [];
  return [addKey(step, "stages", '[{intent_template: "<what to do with {item}>"}]')];
}

export const PIPELINE_KIND: CheckerKind = {
  ownKeys: ["stages"],
  notOffered: ["intent", "intent_template", "reasoning_template", "capture_diff", "defer_advance"],
  requiredKeys: {
    rule: SPEC_PIPELINE_MISSING_KEY,
    missing: (step) => [
      ...(missingOrEmpty(step, "source") ? [addKey(step, "source", '"$.steps.<step>.output.<list>"')] : []),
      ...missingStages(step),
    ],
  },
  exclusiveKeys: {
    rule: SPEC_PIPELINE_ONLY_KEY,
    found(step) {
      if (!given(step, "stages")) return [];
      const typed = step.kind !== null && isTypedStepKind(step.kind);
      return [
        typed ? { key: "stages" } : { key: "stages", message: SPEC_PIPELINE_ONLY_KEY.legacyMessage(step.id) },
      ];
    },
  },
  memberList: null,
  expressions: ["source", "stages"],
  resultType: () => recordOf(pipelineResultRecord()),
  outputContract: stepOutputContract,
  retries: { from: "step", default: DEFAULT_PARALLEL_STEP_RETRIES },
  irPart: "pipeline",
  stratumcOnly: null,
  referenceSince: {
    version: "0.2.69",
    suggestion: "Use a parallel_dispatch step per stage, or require stratum-mcp 0.2.69",
  },
};
