// Who runs a flow's parallel executor (docs/reference/runtime.md §23.11): a record the host keeps beside the
// store while an executor of this process runs, naming the process like a lock's owner record. A
// server that finds `pending` or `running` task entries without an executor of its own marks them
// interrupted only when that record names a process that is certainly gone, so a second live
// server on the same store never touches another live server's tasks. Injected by the host
// (EngineOptions.parallelOwners); without it interrupted entries are never marked.
import { dictGetStr, dictSet } from "../../stdlib/values/dict";
import { PyDict, PyFloat, type PyValue } from "../../stdlib/values/value";
import { putEntry } from "../flow/edits";
import { entryState } from "../flow/parallel-tasks";
import type { FlowRun } from "../flow/run";

/**
 * `none`: no record (never marked: the executor may be another host's or the reference's);
 * `self`: a record of this process; `live`: another process that may be alive (or another host);
 * `gone`: a process of this host that is certainly dead.
 */
export type ExecutorOwnerState = "none" | "self" | "live" | "gone";

export interface ParallelExecutorOwners {
  /** Records this process as the flow's executor; false when another live process holds the record. */
  claim(flowId: string): boolean;
  /** Removes the flow's record if it is this process's. */
  release(flowId: string): void;
  state(flowId: string): ExecutorOwnerState;
  /** Removes the flow's record if its owner is gone (after its entries were marked). */
  clearGone(flowId: string): void;
}

/** The error of a task whose server ended without recording its end (the reference's text). */
export const RESTART_INTERRUPTED = "server restart interrupted task";

/** Whether the flow has task entries still `pending` or `running`. */
export function hasUnsettledEntries(run: FlowRun): boolean {
  for (const value of run.state.parallel_tasks.values()) {
    const state = entryState(value);
    if (state === "pending" || state === "running") return true;
  }
  return false;
}

/**
 * Marks every `pending` or `running` entry `failed` with `error`, `finished_at` set when null and
 * `elapsed_s` from `started_at`; the other keys are kept as they are. Returns how many changed.
 */
export function markInterrupted(run: FlowRun, error: string, nowS: number): number {
  let changed = 0;
  for (const [id, value] of [...run.state.parallel_tasks]) {
    const state = entryState(value);
    if ((state !== "pending" && state !== "running") || !(value instanceof PyDict)) continue;
    const entry = new PyDict();
    for (const [key, v] of value.entries.values()) dictSet(entry, key, v);
    dictSet(entry, "state", "failed");
    dictSet(entry, "error", error);
    const started = floatOf(value, "started_at");
    if (floatOf(value, "finished_at") === null) dictSet(entry, "finished_at", new PyFloat(nowS));
    if (started !== null) dictSet(entry, "elapsed_s", new PyFloat(Math.max(0, nowS - started)));
    putEntry(run, "parallel_tasks", id, entry);
    changed += 1;
  }
  return changed;
}

function floatOf(d: PyDict, key: string): number | null {
  const v: PyValue | undefined = dictGetStr(d, key);
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  return null;
}
