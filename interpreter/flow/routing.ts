// Clearing from a step (docs/reference/runtime.md §5), used by on_fail, next and revise.
import { indexOfStep } from "./current";
import { deleteEntry, type MapField } from "./edits";
import type { FlowRun } from "./run";

/** The per-step maps a clear deletes from, in this order. */
const CLEARED: readonly MapField[] = [
  "step_outputs",
  "attempts",
  "iteration_outcome",
  "iteration_best",
  "iteration_accumulator",
  "iterations",
  "judge_history",
];

/**
 * For every step at the position of `targetId` or later, except `preserve`: delete its stored
 * output, attempts, iteration outcome, best entry, accumulator, iteration history and judge
 * history (a judge step judged again starts at turn 1); clear
 * active_iteration if it belongs to one of them; always clear active_child_flow_id. Records stay.
 */
export function clearFrom(run: FlowRun, targetId: string, preserve: ReadonlySet<string> = new Set()): void {
  const state = run.state;
  const steps = run.flow.steps;
  for (let i = indexOfStep(run, targetId); i < steps.length; i++) {
    const id = steps[i]!.id;
    if (preserve.has(id)) continue;
    for (const key of CLEARED) deleteEntry(run, key, id);
    // A judge step's last turn goes with its history (the member kinds keep their judgements).
    if (steps[i]!.judge) deleteEntry(run, "judge_outcome", id);
    if (state.active_iteration?.step_id === id) state.active_iteration = null;
  }
  state.active_child_flow_id = null;
}
