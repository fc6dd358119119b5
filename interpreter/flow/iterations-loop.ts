// What the iteration tools share (docs/reference/runtime.md §9.2, docs/reference/runtime.md §9.4): finding the active loop a report or an
// abort is about, history entries and their timestamps.
import { PyFloat } from "../../stdlib/values/value";
import type { ActiveIteration, IterationEntry } from "../base/flow-state";
import { putEntry } from "./edits";
import type { Clock } from "./ports";
import type { FlowRun } from "./run";

/**
 * The active loop a report or abort is about, or the execution-error message refusing it. The
 * flow's current step is not checked (docs/reference/runtime.md §9.2).
 */
export function activeLoopFor(
  run: FlowRun,
  stepId: string,
  verb: "report" | "abort",
): ActiveIteration | string {
  const active = run.state.active_iteration;
  if (active === null) return "No active iteration loop";
  if (active.step_id !== stepId)
    return `Active iteration is on step '${active.step_id}', got ${verb} for '${stepId}'`;
  return active;
}

/** A monotonic timestamp in seconds (informational, docs/reference/runtime.md §9.2). */
export function monotonicSeconds(clock: Clock): PyFloat {
  return new PyFloat(clock.monoMs() / 1000);
}

/** Appends a history entry to the step's list (a new list: committed lists are never mutated). */
export function appendHistory(run: FlowRun, stepId: string, entry: IterationEntry): void {
  const history = run.state.iterations.get(stepId) ?? [];
  putEntry(run, "iterations", stepId, [...history, entry]);
}
