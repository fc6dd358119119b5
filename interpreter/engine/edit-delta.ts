// The delta of a working copy in O(the change): containers it still shares with the
// committed state were changed in place through the run's EditLog, which knows what it put,
// deleted and appended; every other key is compared by identity (diffKeyInto), which costs nothing
// for an untouched key and is exact for a reassigned one whose committed container was left alone.

import type { FlowState } from "../base/flow-state";
import type { EditLog } from "../flow/edit-log";
import {
  type DeltaGroups,
  type DeltaKey,
  deltaOf,
  diffKeyInto,
  emptyGroups,
  type FlowDelta,
} from "../store/delta";

/**
 * The change from the state `committed` had when the call began to `working` (revision and
 * status as the engine set them). `committed` is the committed state object, whose shared
 * containers hold the call's in-place changes until a rollback. One pass over the keys in file
 * key order (DELTA_KEYS), so that every group is in the order diffFlowState writes it. Each field
 * is read by name, not by a key from a list: a keyed read of thirty names goes megamorphic, and
 * those reads were most of this function's time on every transition (edits.test.ts checks that
 * every key is read, in that order).
 */
export function editDelta(committed: FlowState, working: FlowState, log: EditLog): FlowDelta {
  const g = emptyGroups();
  const c = committed;
  const w = working;
  key(g, log, "flow_id", c.flow_id, w.flow_id);
  key(g, log, "flow_name", c.flow_name, w.flow_name);
  key(g, log, "raw_spec", c.raw_spec, w.raw_spec);
  key(g, log, "inputs", c.inputs, w.inputs);
  key(g, log, "step_outputs", c.step_outputs, w.step_outputs);
  key(g, log, "records", c.records, w.records);
  key(g, log, "attempts", c.attempts, w.attempts);
  key(g, log, "current_idx", c.current_idx, w.current_idx);
  key(g, log, "checkpoints", c.checkpoints, w.checkpoints);
  key(g, log, "round", c.round, w.round);
  key(g, log, "rounds", c.rounds, w.rounds);
  key(g, log, "round_start_step_id", c.round_start_step_id, w.round_start_step_id);
  key(g, log, "terminal_status", c.terminal_status, w.terminal_status);
  key(g, log, "iterations", c.iterations, w.iterations);
  key(g, log, "archived_iterations", c.archived_iterations, w.archived_iterations);
  key(g, log, "active_iteration", c.active_iteration, w.active_iteration);
  key(g, log, "iteration_outcome", c.iteration_outcome, w.iteration_outcome);
  key(g, log, "iteration_best", c.iteration_best, w.iteration_best);
  key(g, log, "iteration_accumulator", c.iteration_accumulator, w.iteration_accumulator);
  key(g, log, "parent_flow_id", c.parent_flow_id, w.parent_flow_id);
  key(g, log, "parent_step_id", c.parent_step_id, w.parent_step_id);
  key(g, log, "active_child_flow_id", c.active_child_flow_id, w.active_child_flow_id);
  key(g, log, "child_audits", c.child_audits, w.child_audits);
  key(g, log, "parallel_tasks", c.parallel_tasks, w.parallel_tasks);
  key(g, log, "cwd", c.cwd, w.cwd);
  key(g, log, "judge_history", c.judge_history, w.judge_history);
  key(g, log, "judge_outcome", c.judge_outcome, w.judge_outcome);
  key(g, log, "budget_state", c.budget_state, w.budget_state);
  key(g, log, "review_log", c.review_log, w.review_log);
  return deltaOf(working, g);
}

/** Adds one key's change: `container` is what the committed state held, `value` what the working one holds. */
function key(groups: DeltaGroups, log: EditLog, name: DeltaKey, container: unknown, value: unknown): void {
  if (container === value) {
    // Unchanged unless a shared container was changed in place (scalars never are).
    if (typeof container !== "object" || container === null || !log.changed(container)) return;
    if (value instanceof Map) {
      const edit = log.mapEdit(value);
      if (edit !== null && edit.put.size > 0) groups.put[name] = edit.put;
      if (edit !== null && edit.deleted.length > 0) groups.delete[name] = edit.deleted;
    } else if (Array.isArray(value)) {
      const items = log.appended(value);
      if (items !== null && items.length > 0) groups.append[name] = items;
    }
    return;
  }
  // Changed in place, then replaced: the committed container no longer shows what it held.
  if (log.changed(container)) groups.set[name] = value;
  else diffKeyInto(groups, name, container, value);
}
