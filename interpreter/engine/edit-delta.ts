// The delta of a working copy in O(the change): containers it still shares with the
// committed state were changed in place through the run's EditLog, which knows what it put,
// deleted and appended; every other key is compared by identity (diffKeyInto), which costs nothing
// for an untouched key and is exact for a reassigned one whose committed container was left alone.

import type { FlowState } from "../base/flow-state";
import type { EditLog } from "../flow/edit-log";
import { DELTA_KEYS, deltaOf, diffKeyInto, emptyGroups, type FlowDelta } from "../store/delta";

/**
 * The change from the state `committed` had when the call began to `working` (revision and
 * status as the engine set them). `committed` is the committed state object, whose shared
 * containers hold the call's in-place changes until a rollback. One pass over the keys in file
 * key order, so that every group is in the order diffFlowState writes it.
 */
export function editDelta(committed: FlowState, working: FlowState, log: EditLog): FlowDelta {
  const before = committed as unknown as Record<string, unknown>;
  const after = working as unknown as Record<string, unknown>;
  const groups = emptyGroups();
  for (const key of DELTA_KEYS) {
    const container = before[key];
    const value = after[key];
    if (!log.changed(container)) {
      diffKeyInto(groups, key, container, value);
      continue;
    }
    // Changed in place, then replaced: the committed container no longer shows what it held.
    if (value !== container) groups.set[key] = value;
    else if (value instanceof Map) {
      const edit = log.mapEdit(value);
      if (edit !== null && edit.put.size > 0) groups.put[key] = edit.put;
      if (edit !== null && edit.deleted.length > 0) groups.delete[key] = edit.deleted;
    } else if (Array.isArray(value)) {
      const items = log.appended(value);
      if (items !== null && items.length > 0) groups.append[key] = items;
    }
  }
  return deltaOf(working, groups);
}
