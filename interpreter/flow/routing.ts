// Clearing from a step (runtime.md §5), used by on_fail, next and revise.
import type { FlowRun } from "./run";

/**
 * For every step at the position of `targetId` or later, except `preserve`: delete its stored
 * output, attempts, iteration outcome, best entry, accumulator and iteration history; clear
 * active_iteration if it belongs to one of them; always clear active_child_flow_id. Records stay.
 */
export function clearFrom(run: FlowRun, targetId: string, preserve: ReadonlySet<string> = new Set()): void {
  void run;
  void targetId;
  void preserve;
  throw new Error("clearFrom: not implemented yet (A1)");
}
