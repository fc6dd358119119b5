// The version 0.3 keys that only a parallel_dispatch step may carry (docs/reference/language.md §6.2), in the
// order the reference checks them, and the presence test its ban uses.
import type { StepDecl } from "../../model/types";

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
