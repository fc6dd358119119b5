// Copies of flow state: a transaction's working copy, and checkpoint snapshots (docs/reference/runtime.md §10.1).
// Stored user data and records are immutable and shared; a snapshot's containers are copied.

import type { Accumulator, ActiveIteration, FlowState, IterationEntry, Snapshot } from "../base/flow-state";
import { EditLog } from "./edit-log";
import type { FlowRun, FlowTiming } from "./run";

function copyAccumulators(m: ReadonlyMap<string, Accumulator>): Map<string, Accumulator> {
  const out = new Map<string, Accumulator>();
  for (const [k, a] of m) out.set(k, { items: [...a.items], seen: [...a.seen], dry_streak: a.dry_streak });
  return out;
}

function copyIterations(m: ReadonlyMap<string, IterationEntry[]>): Map<string, IterationEntry[]> {
  const out = new Map<string, IterationEntry[]>();
  for (const [k, list] of m) out.set(k, [...list]);
  return out;
}

function copyActive(a: ActiveIteration | null): ActiveIteration | null {
  return a === null ? null : { ...a };
}

/** The snapshot fields of a state (or snapshot), every container copied. */
function snapshotFields(s: Snapshot): Snapshot {
  return {
    step_outputs: new Map(s.step_outputs),
    attempts: new Map(s.attempts),
    records: [...s.records],
    current_idx: s.current_idx,
    round: s.round,
    rounds: s.rounds.map((r) => [...r]),
    round_start_step_id: s.round_start_step_id,
    terminal_status: s.terminal_status,
    iterations: copyIterations(s.iterations),
    archived_iterations: s.archived_iterations.map(copyIterations),
    active_iteration: copyActive(s.active_iteration),
    iteration_outcome: new Map(s.iteration_outcome),
    iteration_best: new Map(s.iteration_best),
    iteration_accumulator: copyAccumulators(s.iteration_accumulator),
    active_child_flow_id: s.active_child_flow_id,
    child_audits: new Map([...s.child_audits].map(([k, list]) => [k, [...list]])),
    judge_history: new Map(s.judge_history),
    judge_outcome: new Map(s.judge_outcome),
  };
}

/** A copy of the state that can be mutated without affecting `state`. */
export function cloneState(state: FlowState): FlowState {
  const f = snapshotFields(state);
  return {
    flow_id: state.flow_id,
    flow_name: state.flow_name,
    raw_spec: state.raw_spec,
    inputs: state.inputs,
    step_outputs: f.step_outputs,
    records: f.records,
    attempts: f.attempts,
    current_idx: f.current_idx,
    // Snapshots are never mutated in place (commit replaces, revert copies), so they are shared.
    checkpoints: new Map(state.checkpoints),
    round: f.round,
    rounds: f.rounds,
    round_start_step_id: f.round_start_step_id,
    terminal_status: f.terminal_status,
    iterations: f.iterations,
    archived_iterations: f.archived_iterations,
    active_iteration: f.active_iteration,
    iteration_outcome: f.iteration_outcome,
    iteration_best: f.iteration_best,
    iteration_accumulator: f.iteration_accumulator,
    parent_flow_id: state.parent_flow_id,
    parent_step_id: state.parent_step_id,
    active_child_flow_id: f.active_child_flow_id,
    child_audits: f.child_audits,
    spec_checksum: "",
    parallel_tasks: new Map(state.parallel_tasks),
    cwd: state.cwd,
    judge_history: f.judge_history,
    judge_outcome: f.judge_outcome,
    synthetic: false,
    budget_state: state.budget_state,
    review_log: new Map([...state.review_log].map(([k, list]) => [k, [...list]])),
    revision: state.revision,
    status: state.status,
  };
}

/** A deep copy of the snapshot fields of docs/reference/runtime.md §10.1. */
export function takeSnapshot(state: FlowState): Snapshot {
  return snapshotFields(state);
}

/** Replaces the snapshot fields of `state` with a copy of `snapshot` (the snapshot stays intact). */
export function applySnapshot(state: FlowState, snapshot: Snapshot): void {
  const f = snapshotFields(snapshot);
  state.step_outputs = f.step_outputs;
  state.attempts = f.attempts;
  state.records = f.records;
  state.current_idx = f.current_idx;
  state.round = f.round;
  state.rounds = f.rounds;
  state.round_start_step_id = f.round_start_step_id;
  state.terminal_status = f.terminal_status;
  state.iterations = f.iterations;
  state.archived_iterations = f.archived_iterations;
  state.active_iteration = f.active_iteration;
  state.iteration_outcome = f.iteration_outcome;
  state.iteration_best = f.iteration_best;
  state.iteration_accumulator = f.iteration_accumulator;
  state.active_child_flow_id = f.active_child_flow_id;
  state.child_audits = f.child_audits;
  state.judge_history = f.judge_history;
  state.judge_outcome = f.judge_outcome;
}

/**
 * A working copy of a run in O(1): the state is a shallow copy, so every field shares
 * the committed container until it is reassigned, and in-place changes of shared containers go
 * through edits.ts, logged in the copy's EditLog (undone when the call does not commit). The
 * dispatch-time maps are shared the same way; the spec and flow are immutable.
 */
export function cloneRun(run: FlowRun): FlowRun {
  const timing: FlowTiming = {
    startedAt: run.timing.startedAt,
    stepDispatchedAt: run.timing.stepDispatchedAt,
    gateDispatchedAt: run.timing.gateDispatchedAt,
  };
  return { state: shallowState(run.state), spec: run.spec, flow: run.flow, timing, edits: new EditLog(run) };
}

/**
 * Every field of `s`, sharing its values: `{ ...s }` by name. A spread of a 36-field state took
 * V8's generic object copy on every call (1.5 µs a transition); a literal has one shape, and the
 * working copies made from it keep it.
 */
function shallowState(s: FlowState): FlowState {
  return {
    flow_id: s.flow_id,
    flow_name: s.flow_name,
    raw_spec: s.raw_spec,
    inputs: s.inputs,
    step_outputs: s.step_outputs,
    records: s.records,
    attempts: s.attempts,
    current_idx: s.current_idx,
    checkpoints: s.checkpoints,
    round: s.round,
    rounds: s.rounds,
    round_start_step_id: s.round_start_step_id,
    terminal_status: s.terminal_status,
    iterations: s.iterations,
    archived_iterations: s.archived_iterations,
    active_iteration: s.active_iteration,
    iteration_outcome: s.iteration_outcome,
    iteration_best: s.iteration_best,
    iteration_accumulator: s.iteration_accumulator,
    parent_flow_id: s.parent_flow_id,
    parent_step_id: s.parent_step_id,
    active_child_flow_id: s.active_child_flow_id,
    child_audits: s.child_audits,
    spec_checksum: s.spec_checksum,
    parallel_tasks: s.parallel_tasks,
    cwd: s.cwd,
    judge_history: s.judge_history,
    judge_outcome: s.judge_outcome,
    synthetic: s.synthetic,
    budget_state: s.budget_state,
    review_log: s.review_log,
    revision: s.revision,
    status: s.status,
  };
}
