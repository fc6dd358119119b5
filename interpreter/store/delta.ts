// State deltas for the journal store (docs/design/durable-store.md, "Entries are state deltas"): what one
// committing call changed in a flow state, computed by identity against the committed state
// (committed user data is never mutated and working copies share it), written as compact JSON
// with the flow file's kind-preserving encoder, read back with the flow file's readers, and
// applied to the committed state to give a state that encodes byte for byte like the working one.
import { JsonDepthError, JsonSyntaxError, parseJson } from "../../stdlib/values/json";
import type { PyValue } from "../../stdlib/values/value";
import type { FlowState, PersistedStatus } from "../base/flow-state";
import { MAX_FLOW_FILE_DEPTH } from "../limits";
import { encodeWire, WireDepthError } from "../wire/encode";
import { measureWire } from "../wire/measure";
import type { WireObject } from "../wire/wire";
import { FlowTooLargeError, tooDeep } from "./codec";
import {
  DELTA_KEYS,
  type DeltaKey,
  FIELDS,
  type ListKey,
  type LooseField,
  type MapKey,
  PERSISTED_STATUSES,
} from "./delta-fields";
import { FormatError, listOf, mapOf, oneOf, readAny, readInt, readString } from "./json-reader";

export { DELTA_KEYS, type DeltaKey } from "./delta-fields";

/**
 * One committing call's change to a flow state. A key is in at most one of `set`, `append` and
 * (`put` and/or `delete`); unchanged keys are in none. Applied per key: `set` replaces the value,
 * `append` adds items at the end, `delete` removes map keys and then `put` writes entries (an
 * existing key keeps its place, a new one goes last).
 */
export interface FlowDelta {
  readonly revision: number;
  readonly status: PersistedStatus;
  readonly set: { readonly [K in DeltaKey]?: FlowState[K] };
  readonly append: { readonly [K in ListKey]?: FlowState[K] };
  readonly put: { readonly [K in MapKey]?: FlowState[K] };
  readonly delete: { readonly [K in MapKey]?: readonly string[] };
}

/** Why a delta text could not be read; nothing should be applied. */
export interface DeltaProblem {
  readonly problem: string;
}

/** A state's fields by name, for the generic loops below (the table says what each one holds). */
type Loose = Record<string, unknown>;
type LooseMap = ReadonlyMap<string, unknown>;

function fieldsOf(state: FlowState): Loose {
  return state as unknown as Loose;
}

/**
 * The change from `committed` to `working` (the working copy of a call, after the engine set its
 * `revision` and `status`). Per key: the same object (`===`) is unchanged; an array whose
 * committed items are an identical prefix is an `append` of the rest; a map is `put` of the new
 * and changed entries and `delete` of the removed keys (a key that moved is deleted and put again,
 * so delete-then-put gives the working key order exactly), or `set` when every entry would be
 * written anyway; anything else is `set` unless equal. "Identical" is `===` on what working copies
 * share, and one level of pointer compares on the containers cloneState copies (rounds, iteration
 * lists, accumulators, the active iteration): unchanged data is never encoded or walked deeply.
 * The delta holds the working state's own values: encode it before that state changes again.
 */
export function diffFlowState(committed: FlowState, working: FlowState): FlowDelta {
  const before = fieldsOf(committed);
  const after = fieldsOf(working);
  const groups = emptyGroups();
  for (const key of DELTA_KEYS) diffKeyInto(groups, key, before[key], after[key]);
  return deltaOf(working, groups);
}

/** A delta's four groups while it is built, each filled in the order its keys are given. */
export interface DeltaGroups {
  readonly set: Loose;
  readonly append: Loose;
  readonly put: Loose;
  readonly delete: Loose;
}

export function emptyGroups(): DeltaGroups {
  return { set: {}, append: {}, put: {}, delete: {} };
}

/** The delta of `working` (its revision and status) with the groups built. */
export function deltaOf(working: FlowState, groups: DeltaGroups): FlowDelta {
  return {
    revision: working.revision,
    status: working.status,
    set: groups.set,
    append: groups.append,
    put: groups.put,
    delete: groups.delete,
  } as FlowDelta;
}

/** Adds to `groups` the change of one key from `a` (committed) to `b` (working), as diffFlowState does. */
export function diffKeyInto(groups: DeltaGroups, key: DeltaKey, a: unknown, b: unknown): void {
  if (a === b) return;
  const field: LooseField = FIELDS[key];
  if (field.kind === "value") {
    if (!field.same(a, b)) groups.set[key] = b;
  } else if (field.kind === "list") {
    const items = appended(a as readonly unknown[], b as readonly unknown[], field.same);
    if (items === null) groups.set[key] = b;
    else if (items.length > 0) groups.append[key] = items;
  } else {
    const change = mapChange(a as LooseMap, b as LooseMap, field.same);
    if (change === "set") groups.set[key] = b;
    else if (change !== null) {
      if (change.put.size > 0) groups.put[key] = change.put;
      if (change.deleted.length > 0) groups.delete[key] = change.deleted;
    }
  }
}

/** The items added at the end of `after`, or null when `before` is not an identical prefix. */
function appended(
  before: readonly unknown[],
  after: readonly unknown[],
  same: (x: unknown, y: unknown) => boolean,
): unknown[] | null {
  if (after.length < before.length) return null;
  for (let i = 0; i < before.length; i++) if (!same(before[i], after[i])) return null;
  return after.slice(before.length);
}

interface MapChange {
  readonly put: Map<string, unknown>;
  readonly deleted: string[];
}

/** `put`/`delete` that turn `before` into `after` (key order included), "set", or null: no change. */
function mapChange(
  before: LooseMap,
  after: LooseMap,
  same: (x: unknown, y: unknown) => boolean,
): MapChange | "set" | null {
  const change = sameOrderChange(before, after, same) ?? reorderedChange(before, after, same);
  if (change.put.size === 0 && change.deleted.length === 0) return null;
  // Every entry of `after` would be written anyway (this includes a map emptied by deletes).
  if (change.put.size === after.size) return "set";
  return change;
}

/**
 * The common case in one pass without allocations: `after` keeps every key of `before` in place
 * and adds new ones at the end. Null when a key was removed or moved.
 */
function sameOrderChange(
  before: LooseMap,
  after: LooseMap,
  same: (x: unknown, y: unknown) => boolean,
): MapChange | null {
  if (after.size < before.size) return null;
  const put = new Map<string, unknown>();
  const old = before.entries();
  for (const [key, value] of after) {
    const prior = old.next();
    if (prior.done === true)
      put.set(key, value); // past the old keys: new (map keys are unique)
    else if (prior.value[0] !== key) return null;
    else if (!same(prior.value[1], value)) put.set(key, value);
  }
  return { put, deleted: [] };
}

/**
 * Keys removed or moved: the longest run of `after`'s keys that keeps `before`'s order stays in
 * place (values compared); from the first new or out-of-order key on, every entry is put, and the
 * moved ones are deleted first so that they go last.
 */
function reorderedChange(
  before: LooseMap,
  after: LooseMap,
  same: (x: unknown, y: unknown) => boolean,
): MapChange {
  const position = new Map<string, number>();
  for (const key of before.keys()) position.set(key, position.size);
  const put = new Map<string, unknown>();
  const moved = new Set<string>();
  let cursor = 0;
  let tail = false;
  for (const [key, value] of after) {
    const at = position.get(key);
    if (!tail && (at === undefined || at < cursor)) tail = true;
    if (tail) {
      put.set(key, value);
      if (at !== undefined) moved.add(key);
    } else if (at !== undefined) {
      cursor = at + 1;
      if (!same(before.get(key), value)) put.set(key, value);
    }
  }
  const deleted: string[] = [];
  for (const key of before.keys()) if (moved.has(key) || !after.has(key)) deleted.push(key);
  return { put, deleted };
}

/**
 * The state `delta` makes of `state`: a new state whose containers are copied as a working copy's
 * are (flow/clone.ts), so mutating it never touches `state` or the delta's values; immutable data
 * is shared. `state` is not changed. Costs a copy of the whole state: to replay many entries, copy
 * once and use applyDeltaInPlace.
 */
export function applyDelta(state: FlowState, delta: FlowDelta): FlowState {
  const out = copyState(state);
  applyDeltaInPlace(out, delta);
  return out;
}

/**
 * Applies `delta` to a state the caller owns (a working copy, or a state being replayed from a
 * journal), in time proportional to the delta: the values it inserts are copied as a working
 * copy's are, so the delta stays untouched by later changes of `state`.
 */
export function applyDeltaInPlace(state: FlowState, delta: FlowDelta): void {
  const target = fieldsOf(state);
  // Over the keys each group names (a delta names a few of the state's thirty): a key is in `set`,
  // in `append`, or in `delete` and/or `put` (deleted first), so the groups apply independently.
  const set = delta.set as Loose;
  for (const key in set) {
    const field = fieldOf(key);
    if (field !== undefined) target[key] = copyField(field, set[key]);
  }
  const append = delta.append as Loose;
  for (const key in append) {
    const field = fieldOf(key);
    if (field?.kind !== "list") continue;
    const list = target[key] as unknown[];
    for (const item of append[key] as readonly unknown[]) list.push(field.copy(item));
  }
  const del = delta.delete as Loose;
  for (const key in del) {
    if (fieldOf(key)?.kind !== "map") continue;
    const map = target[key] as Map<string, unknown>;
    if (map === NO_ENTRIES) continue;
    for (const k of del[key] as readonly string[]) map.delete(k);
  }
  const put = delta.put as Loose;
  for (const key in put) {
    const field = fieldOf(key);
    if (field?.kind !== "map") continue;
    let map = target[key] as Map<string, unknown>;
    if (map === NO_ENTRIES) {
      map = new Map();
      target[key] = map;
    }
    const copy = field.copy;
    (put[key] as LooseMap).forEach((v, k) => {
      map.set(k, copy(v));
    });
  }
  state.revision = delta.revision;
  state.status = delta.status;
}

/** The field of a state key a delta may name; undefined for any other key. */
function fieldOf(key: string): LooseField | undefined {
  return Object.hasOwn(FIELDS, key) ? FIELDS[key as DeltaKey] : undefined;
}

/** A map that stays empty: changing it throws, so a stray write cannot reach every flow that shares it. */
class SealedEmptyMap extends Map<string, unknown> {
  override set(key: string): this {
    throw new Error(`internal error: a write of '${key}' into a state's shared empty map`);
  }
  override delete(key: string): boolean {
    throw new Error(`internal error: a delete of '${key}' from a state's shared empty map`);
  }
  override clear(): void {
    throw new Error("internal error: a clear of a state's shared empty map");
  }
}

/**
 * The one empty map of the states copied by keptCopyOfState: never changed;
 * applyDeltaInPlace puts a new map in its place before it puts an entry.
 */
const NO_ENTRIES: ReadonlyMap<string, unknown> = new SealedEmptyMap();

/** A copy of a field's value as a working copy holds it (an empty map as NO_ENTRIES when `shareEmpty`). */
function copyField(field: LooseField, value: unknown, shareEmpty = false): unknown {
  switch (field.kind) {
    case "value":
      return field.copy(value);
    case "list":
      return (value as readonly unknown[]).map((item) => field.copy(item));
    case "map": {
      if (shareEmpty && (value as LooseMap).size === 0) return NO_ENTRIES;
      // forEach, not for-of: no entry pair per item (the memory store copies every new flow).
      const out = new Map<string, unknown>();
      const copy = field.copy;
      (value as LooseMap).forEach((v, k) => {
        out.set(k, copy(v));
      });
      return out;
    }
  }
}

/** The state with every field copied as a working copy's is, in FlowState key order. */
export function copyState(state: FlowState): FlowState {
  return copyFields(state, false);
}

/**
 * copyState for a state only applyDeltaInPlace changes (the memory store's kept states): its empty
 * maps are one shared, sealed map, which applyDeltaInPlace replaces before putting into it (a new
 * flow has a dozen empty maps, kept as long as the flow is).
 */
export function keptCopyOfState(state: FlowState): FlowState {
  return copyFields(state, true);
}

/**
 * Every field by name, in FlowState key order (every state is made in that order: newRun, the
 * codec, cloneState): a loop of keyed reads and writes over thirty-three names went megamorphic,
 * and this runs for every new flow the memory store keeps.
 */
function copyFields(s: FlowState, e: boolean): FlowState {
  return {
    flow_id: copyField(FIELDS.flow_id, s.flow_id, e) as FlowState["flow_id"],
    flow_name: copyField(FIELDS.flow_name, s.flow_name, e) as FlowState["flow_name"],
    raw_spec: copyField(FIELDS.raw_spec, s.raw_spec, e) as FlowState["raw_spec"],
    inputs: copyField(FIELDS.inputs, s.inputs, e) as FlowState["inputs"],
    step_outputs: copyField(FIELDS.step_outputs, s.step_outputs, e) as FlowState["step_outputs"],
    records: copyField(FIELDS.records, s.records, e) as FlowState["records"],
    attempts: copyField(FIELDS.attempts, s.attempts, e) as FlowState["attempts"],
    current_idx: copyField(FIELDS.current_idx, s.current_idx, e) as FlowState["current_idx"],
    checkpoints: copyField(FIELDS.checkpoints, s.checkpoints, e) as FlowState["checkpoints"],
    round: copyField(FIELDS.round, s.round, e) as FlowState["round"],
    rounds: copyField(FIELDS.rounds, s.rounds, e) as FlowState["rounds"],
    round_start_step_id: copyField(
      FIELDS.round_start_step_id,
      s.round_start_step_id,
      e,
    ) as FlowState["round_start_step_id"],
    terminal_status: copyField(FIELDS.terminal_status, s.terminal_status, e) as FlowState["terminal_status"],
    iterations: copyField(FIELDS.iterations, s.iterations, e) as FlowState["iterations"],
    archived_iterations: copyField(
      FIELDS.archived_iterations,
      s.archived_iterations,
      e,
    ) as FlowState["archived_iterations"],
    active_iteration: copyField(
      FIELDS.active_iteration,
      s.active_iteration,
      e,
    ) as FlowState["active_iteration"],
    iteration_outcome: copyField(
      FIELDS.iteration_outcome,
      s.iteration_outcome,
      e,
    ) as FlowState["iteration_outcome"],
    iteration_best: copyField(FIELDS.iteration_best, s.iteration_best, e) as FlowState["iteration_best"],
    iteration_accumulator: copyField(
      FIELDS.iteration_accumulator,
      s.iteration_accumulator,
      e,
    ) as FlowState["iteration_accumulator"],
    parent_flow_id: copyField(FIELDS.parent_flow_id, s.parent_flow_id, e) as FlowState["parent_flow_id"],
    parent_step_id: copyField(FIELDS.parent_step_id, s.parent_step_id, e) as FlowState["parent_step_id"],
    active_child_flow_id: copyField(
      FIELDS.active_child_flow_id,
      s.active_child_flow_id,
      e,
    ) as FlowState["active_child_flow_id"],
    child_audits: copyField(FIELDS.child_audits, s.child_audits, e) as FlowState["child_audits"],
    spec_checksum: s.spec_checksum,
    parallel_tasks: copyField(FIELDS.parallel_tasks, s.parallel_tasks, e) as FlowState["parallel_tasks"],
    cwd: copyField(FIELDS.cwd, s.cwd, e) as FlowState["cwd"],
    judge_history: copyField(FIELDS.judge_history, s.judge_history, e) as FlowState["judge_history"],
    judge_outcome: copyField(FIELDS.judge_outcome, s.judge_outcome, e) as FlowState["judge_outcome"],
    synthetic: s.synthetic,
    budget_state: copyField(FIELDS.budget_state, s.budget_state, e) as FlowState["budget_state"],
    review_log: copyField(FIELDS.review_log, s.review_log, e) as FlowState["review_log"],
    revision: s.revision,
    status: s.status,
  };
}

/**
 * The delta as one line of JSON (Python's default separators), values written as in the flow
 * file (floats stay floats, big integers stay integers, map key order kept): `{"revision": r,
 * "status": s, "set": {…}, "append": {…}, "put": {…}, "delete": {…}}`, empty groups left out.
 * Throws FlowTooLargeError when a changed value nests deeper than a flow file may
 * (`flowId` names the flow in the message).
 */
export function encodeDelta(delta: FlowDelta, flowId = ""): string {
  try {
    // One level more than the file: a changed value sits one level deeper in a delta.
    return encodeWire(deltaWire(delta), { maxDepth: MAX_FLOW_FILE_DEPTH + 1 });
  } catch (e) {
    // A delta holds state values one level deeper than the file does, so this is exactly the
    // file's own limit, and the message is the codec's.
    if (e instanceof WireDepthError) throw tooDeep(flowId);
    if (e instanceof RangeError) throw new FlowTooLargeError(flowId, `its change is too long (${e.message})`);
    throw e;
  }
}

/**
 * An estimate of the length of encodeDelta's text without encoding it (measureWire), for a store
 * that keeps states (the memory store); throws the FlowTooLargeError encodeDelta throws for a
 * change nested too deep.
 */
export function measureDelta(delta: FlowDelta, flowId = ""): number {
  try {
    return measureWire(deltaWire(delta), MAX_FLOW_FILE_DEPTH + 1);
  } catch (e) {
    if (e instanceof WireDepthError) throw tooDeep(flowId);
    throw e;
  }
}

/** The delta as the wire object its text is, empty groups left out. */
function deltaWire(delta: FlowDelta): WireObject {
  const group = (g: object): WireObject | undefined => (isEmptyGroup(g) ? undefined : (g as WireObject));
  return {
    revision: delta.revision,
    status: delta.status,
    set: group(delta.set),
    append: group(delta.append),
    put: group(delta.put),
    delete: group(delta.delete as Record<string, readonly string[]>),
  };
}

/** Whether a group has no key (without listing its keys: this is on every commit's path). */
function isEmptyGroup(g: object): boolean {
  for (const _ in g) return false;
  return true;
}

const GROUPS = ["set", "append", "put", "delete"] as const;
const TOP_KEYS: ReadonlySet<string> = new Set(["revision", "status", ...GROUPS]);

/**
 * Reads a delta text written by encodeDelta; every value is read with the flow file's reader of
 * its field, so the state it is applied to has the shapes decodeFlowState gives. Unknown keys are
 * refused (a newer writer's change must not be dropped silently), and so is a key in two groups
 * that exclude each other.
 */
export function decodeDelta(text: string): FlowDelta | DeltaProblem {
  try {
    return readDelta(parseJson(text, { maxDepth: MAX_FLOW_FILE_DEPTH + 1 }));
  } catch (e) {
    if (e instanceof JsonDepthError)
      return { problem: `${e.message}; a delta nests at most ${MAX_FLOW_FILE_DEPTH + 1} levels` };
    if (e instanceof JsonSyntaxError) return { problem: `not valid JSON: ${e.message}` };
    if (e instanceof FormatError) return { problem: e.message };
    throw e;
  }
}

const readObject = mapOf(readAny);

function readDelta(json: PyValue): FlowDelta {
  const top = readObject(json, "");
  for (const key of top.keys()) {
    if (!TOP_KEYS.has(key))
      throw new FormatError(jsonPath("", key), "no such key (revision, status, set, append, put, delete)");
  }
  const revision = top.get("revision");
  const status = top.get("status");
  if (revision === undefined) throw new FormatError("revision", "an integer (it is missing)");
  if (status === undefined) throw new FormatError("status", "a flow status (it is missing)");
  const groups = { set: {} as Loose, append: {} as Loose, put: {} as Loose, delete: {} as Loose };
  const seen = new Map<string, string>();
  for (const name of GROUPS) {
    const value = top.get(name);
    if (value === undefined) continue;
    for (const [key, v] of readObject(value, name)) {
      const path = jsonPath(name, key);
      const field = Object.hasOwn(FIELDS, key) ? FIELDS[key as DeltaKey] : undefined;
      if (field === undefined) throw new FormatError(path, "a key of the flow state");
      const other = seen.get(key);
      const mapPair = field.kind === "map" && (other === "put" || other === "delete");
      if (other !== undefined && !mapPair)
        throw new FormatError(path, `no other change of a key changed by ${other}`);
      seen.set(key, name);
      groups[name][key] = readChange(name, field, v, path);
    }
  }
  return {
    revision: readRevision(revision, "revision"),
    status: oneOf(PERSISTED_STATUSES)(status, "status"),
    ...groups,
  } as FlowDelta;
}

function readChange(group: (typeof GROUPS)[number], field: LooseField, v: PyValue, path: string): unknown {
  switch (group) {
    case "set":
      return field.kind === "value"
        ? field.read(v, path)
        : field.kind === "list"
          ? listOf(field.read)(v, path)
          : mapOf(field.read)(v, path);
    case "append":
      if (field.kind !== "list") throw new FormatError(path, "a list key of the flow state");
      return listOf(field.read)(v, path);
    case "put":
      if (field.kind !== "map") throw new FormatError(path, "a map key of the flow state");
      return mapOf(field.read)(v, path);
    case "delete":
      if (field.kind !== "map") throw new FormatError(path, "a map key of the flow state");
      return listOf(readString)(v, path);
  }
}

function readRevision(v: PyValue, path: string): number {
  const n = readInt(v, path);
  if (n < 0) throw new FormatError(path, "a non-negative integer");
  return n;
}

function jsonPath(parent: string, key: string): string {
  return parent === "" ? key : `${parent}.${key}`;
}
