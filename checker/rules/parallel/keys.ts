// The version 0.3 keys that only a parallel_dispatch step may carry (docs/reference/language.md §6.2), in the
// order the reference checks them, the presence test its ban uses, and where a missing key of a
// decompose or parallel_dispatch step is reported.
import { valueRange } from "../../anchors";
import type { SpecModel, StepDecl } from "../../model/types";
import { type NamedStep, stepEntity, stepPath } from "../support";

/** Checked in this order; on other steps `intent_template` comes last (decompose steps: first). */
export const PARALLEL_ONLY_KEYS = [
  "source",
  "isolation",
  "require",
  "merge",
  "task_reasoning_template",
  "task_timeout",
  "max_concurrent",
  // stratumc extensions (docs/design/concurrency-constructs.md §2), after the reference's keys.
  "member_contract",
  "validate",
] as const;

/**
 * "Given" as the reference means it: present with a value other than null. A key with a
 * structural error is unknown (reported already), so only valid keys count.
 */
export function given(step: StepDecl, key: string): boolean {
  if (!step.valid(key)) return false;
  const value = step.entry(key)?.value;
  return !(value?.kind === "scalar" && value.value === null);
}

/** A key that is absent, or valid and the empty string (the reference's "missing or empty"). */
export function missingOrEmpty(step: StepDecl, key: string): boolean {
  if (step.entry(key) === undefined) return true;
  return step.string(key)?.value === "";
}

const EXAMPLE_VALUES: Readonly<Record<string, string>> = {
  agent: "claude",
  intent: '"Break the work into tasks"',
  output_contract: "TaskGraph",
  source: '"$.steps.<decompose step>.output.tasks"',
  intent_template: '"Implement {task.description}"',
};

/** The path names the key (as the reference does); the range is its empty value, or the step. */
export function missingKeyWhere(model: SpecModel, step: NamedStep, key: string) {
  const entry = step.entry(key);
  return {
    path: stepPath(step, key),
    range: entry === undefined ? stepEntity(model, step) : valueRange(model.source, entry),
    suggestion: `Add ${key}: ${EXAMPLE_VALUES[key] ?? "<value>"} to step '${step.id}'`,
  };
}
