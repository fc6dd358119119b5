// The flow's `parallel_tasks` (docs/reference/runtime.md §14.1): per task id of the server-dispatched
// parallel step, its state object with exactly the reference's keys in its order (the reference's
// restore rejects any other key). Only the server path writes entries. Entries belong to the
// parallel step dispatched last: every (re)dispatch of a parallel step drops them all (decisions
// B2/B3: the reference never drops them, so a step could not be re-run and a second step reusing
// task ids saw the first one's results); stratum_resume, which only repeats the payload, keeps them.
import { dictGetStr, dictSet } from "../../stdlib/values/dict";
import { PyDict, PyFloat, type PyValue } from "../../stdlib/values/value";
import { budgetExhausted, charged } from "./budget";
import { deleteEntry, putEntry } from "./edits";
import type { FlowRun } from "./run";

/** `skipped` only on pipeline stages the executor did not run (docs/reference/runtime.md §4.8). */
export type TaskState = "pending" | "running" | "complete" | "failed" | "cancelled" | "skipped";

export const TERMINAL_TASK_STATES: ReadonlySet<string> = new Set([
  "complete",
  "failed",
  "cancelled",
  "skipped",
]);

/** The fields of one entry, in file order; `tokens` an int, the times and money floats. */
export interface TaskEntry {
  readonly task_id: string;
  readonly state: TaskState;
  readonly started_at: PyFloat | null;
  readonly finished_at: PyFloat | null;
  readonly result: PyValue;
  readonly error: string | null;
  readonly cert_violations: readonly string[] | null;
  readonly worktree_path: string | null;
  readonly diff: string | null;
  readonly diff_error: string | null;
  /**
   * The `gate_failed` record of a task whose `pre_merge_verify` failed (pre-merge-verify.ts). The
   * key is stored only then: an entry without it keeps the keys earlier versions restore.
   */
  readonly gate_bounce?: PyDict;
  readonly tokens: number;
  readonly elapsed_s: PyFloat;
  readonly dollars_recorded: PyFloat;
}

/** A new entry as start seeds it (ParallelTaskState's defaults). */
export function pendingEntry(taskId: string): TaskEntry {
  return {
    task_id: taskId,
    state: "pending",
    started_at: null,
    finished_at: null,
    result: null,
    error: null,
    cert_violations: null,
    worktree_path: null,
    diff: null,
    diff_error: null,
    tokens: 0,
    elapsed_s: new PyFloat(0),
    dollars_recorded: new PyFloat(0),
  };
}

/** The stored value of an entry (a dict in key order). */
function entryValue(entry: TaskEntry): PyDict {
  const d = new PyDict();
  dictSet(d, "task_id", entry.task_id);
  dictSet(d, "state", entry.state);
  dictSet(d, "started_at", entry.started_at);
  dictSet(d, "finished_at", entry.finished_at);
  dictSet(d, "result", entry.result);
  dictSet(d, "error", entry.error);
  dictSet(d, "cert_violations", entry.cert_violations === null ? null : [...entry.cert_violations]);
  dictSet(d, "worktree_path", entry.worktree_path);
  dictSet(d, "diff", entry.diff);
  dictSet(d, "diff_error", entry.diff_error);
  if (entry.gate_bounce !== undefined) dictSet(d, "gate_bounce", entry.gate_bounce);
  dictSet(d, "tokens", entry.tokens);
  dictSet(d, "elapsed_s", entry.elapsed_s);
  dictSet(d, "dollars_recorded", entry.dollars_recorded);
  return d;
}

/** The state of a stored entry ("pending" when unreadable: it has not run). */
export function entryState(value: PyValue): TaskState {
  const state = value instanceof PyDict ? dictGetStr(value, "state") : undefined;
  return state === "running" ||
    state === "complete" ||
    state === "failed" ||
    state === "cancelled" ||
    state === "skipped"
    ? state
    : "pending";
}

/**
 * The keys of poll's `summary`, in 0.2.69's order. `reparenting` is 0.2.69's state of a Codex task
 * re-attached after a restart, which stratumc never enters (its restart fails interrupted tasks), so
 * that count is always 0; it is kept because clients of 0.2.69 read a seven-key summary.
 */
const SUMMARY_KEYS = [
  "pending",
  "running",
  "complete",
  "failed",
  "cancelled",
  "skipped",
  "reparenting",
] as const;

/** Poll's `summary`: how many entries are in each state, every key of SUMMARY_KEYS present. */
export function stateSummary(entries: Iterable<PyValue>): Record<string, number> {
  const summary: Record<string, number> = {};
  for (const key of SUMMARY_KEYS) summary[key] = 0;
  for (const value of entries) {
    const state = entryState(value);
    summary[state] = (summary[state] ?? 0) + 1;
  }
  return summary;
}

export function entryResult(value: PyValue): PyValue {
  return value instanceof PyDict ? (dictGetStr(value, "result") ?? null) : null;
}

export function putTaskEntry(run: FlowRun, entry: TaskEntry): void {
  putEntry(run, "parallel_tasks", entry.task_id, entryValue(entry));
}

/** Drops every entry (a parallel step is being dispatched). */
export function dropTaskEntries(run: FlowRun): void {
  for (const id of [...run.state.parallel_tasks.keys()]) deleteEntry(run, "parallel_tasks", id);
}

/** One change the executor makes: the entry of a task, from the state it expects it in. */
export interface EntryUpdate {
  readonly expected: TaskState;
  readonly entry: TaskEntry;
}

/**
 * The executor's write (an internal call of the engine): every update applies only when its entry
 * still exists in the expected state; otherwise nothing is written and the answer is an error
 * (the step was re-dispatched, or another writer moved on).
 */
export function writeTaskEntries(run: FlowRun, updates: readonly EntryUpdate[]): boolean {
  for (const { expected, entry } of updates) {
    const current = run.state.parallel_tasks.get(entry.task_id);
    if (current === undefined || entryState(current) !== expected) return false;
  }
  for (const { expected, entry } of updates) {
    putTaskEntry(run, entry);
    if (expected === "running" && TERMINAL_TASK_STATES.has(entry.state)) chargeTask(run, entry);
  }
  return true;
}

/**
 * A task whose agent ran ends (its one move out of `running`): one dispatch, its tokens, wall
 * seconds and dollars go to the flow's run budget (docs/reference/runtime.md §11.4); a cap it
 * reaches stops the flow, which the next advancing call answers with budget_exhausted.
 */
function chargeTask(run: FlowRun, entry: TaskEntry): void {
  const ledger = run.state.budget_state;
  if (ledger === null) return;
  run.state.budget_state = charged(ledger, {
    dispatches: 1,
    tokens: entry.tokens,
    wall_s: entry.elapsed_s.v,
    dollars: entry.dollars_recorded.v,
  });
  if (run.state.terminal_status === null && budgetExhausted(run.state.budget_state)) {
    run.state.terminal_status = "budget_exhausted";
  }
}
