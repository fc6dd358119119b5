// The delta of a working copy in O(the change): containers it still shares with the
// committed state were changed in place through the run's EditLog, which knows what it put,
// deleted and appended; every other key is compared by identity (diffKeys), which costs nothing
// for an untouched key and is exact for a reassigned one whose committed container was left alone.

import type { FlowState } from "../base/flow-state";
import type { EditLog } from "../flow/edit-log";
import { DELTA_KEYS, type DeltaKey, diffKeys, type FlowDelta } from "../store/delta";

type Group = Record<string, unknown>;

/**
 * The change from the state `committed` had when the call began to `working` (revision and
 * status as the engine set them). `committed` is the committed state object, whose shared
 * containers hold the call's in-place changes until a rollback.
 */
export function editDelta(committed: FlowState, working: FlowState, log: EditLog): FlowDelta {
  const before = committed as unknown as Group;
  const after = working as unknown as Group;
  const set: Group = {};
  const append: Group = {};
  const put: Group = {};
  const del: Group = {};
  const compared: DeltaKey[] = [];
  for (const key of DELTA_KEYS) {
    const container = before[key];
    if (!log.changed(container)) {
      compared.push(key);
      continue;
    }
    const value = after[key];
    // Changed in place, then replaced: the committed container no longer shows what it held.
    if (value !== container) set[key] = value;
    else if (value instanceof Map) {
      const edit = log.mapEdit(value);
      if (edit !== null && edit.put.size > 0) put[key] = edit.put;
      if (edit !== null && edit.deleted.length > 0) del[key] = edit.deleted;
    } else if (Array.isArray(value)) {
      const items = log.appended(value);
      if (items !== null && items.length > 0) append[key] = items;
    }
  }
  const rest = diffKeys(committed, working, compared);
  return {
    revision: working.revision,
    status: working.status,
    set: inKeyOrder(rest.set, set),
    append: inKeyOrder(rest.append, append),
    put: inKeyOrder(rest.put, put),
    delete: inKeyOrder(rest.delete, del),
  } as FlowDelta;
}

/** The entries of two groups with distinct keys, in file key order (as diffFlowState writes them). */
function inKeyOrder(a: object, b: Group): Group {
  const first = a as Group;
  // Each group was filled in DELTA_KEYS order: when one is empty the other already is the answer
  // (the common case: a call changes a few fields, most groups empty on one side or both).
  if (isEmpty(b)) return first;
  if (isEmpty(first)) return b;
  const out: Group = {};
  for (const key of DELTA_KEYS) {
    // hasOwn, not `??`: a value field may be set to null.
    if (Object.hasOwn(first, key)) out[key] = first[key];
    else if (Object.hasOwn(b, key)) out[key] = b[key];
  }
  return out;
}

function isEmpty(g: Group): boolean {
  for (const _ in g) return false;
  return true;
}
