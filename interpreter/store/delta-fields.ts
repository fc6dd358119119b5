// The table behind state deltas (delta.ts): for every key of FlowState a delta may name, in file
// key order, what it holds (a value, a list that grows at the end, a map), when two versions of
// it (or of one item or map value) are the same, and the flow file's reader of it (decode-parts),
// so that a decoded delta rebuilds exactly the shapes decodeFlowState gives.
import { PyFloat } from "../../stdlib/values/value";
import type { FlowState, PersistedStatus } from "../base/flow-state";
import type { Wire } from "../wire/wire";
import {
  readAccumulator,
  readActiveIteration,
  readBudgetState,
  readIterationEntry,
  readIterations,
  readRecord,
  readRecords,
  readSnapshot,
} from "./decode-parts";
import { listOf, nullable, oneOf, type Reader, readAny, readDict, readInt, readString } from "./json-reader";

/** Arrays of the state that grow at the end (trace records, rounds, archived iterations). */
export type ListKey = "records" | "rounds" | "archived_iterations";
/** Maps of the state (keyed by step ids and labels). */
export type MapKey =
  | "step_outputs"
  | "attempts"
  | "checkpoints"
  | "iterations"
  | "iteration_outcome"
  | "iteration_best"
  | "iteration_accumulator"
  | "child_audits"
  | "parallel_tasks"
  | "judge_history"
  | "judge_outcome"
  | "review_log";
/**
 * The keys a delta may name. `revision` and `status` are in every delta on their own;
 * `spec_checksum` and `synthetic` are constants (docs/reference/runtime.md §14.1) and never change.
 */
export type DeltaKey = Exclude<keyof FlowState, "revision" | "status" | "spec_checksum" | "synthetic">;

export const PERSISTED_STATUSES: readonly PersistedStatus[] = [
  "running",
  "awaiting_gate",
  "exhausted",
  "complete",
  "killed",
  "budget_exhausted",
];

type Same<T> = (a: T, b: T) => boolean;

/**
 * `copy` gives what a working copy (flow/clone.ts) holds of a value: the containers calls mutate
 * are copied, immutable data (user data, records, snapshots, the budget) is shared.
 */
type Copy<T> = (value: T) => T;

/** A whole value: `set` when not the same. */
interface ValueField<T> {
  readonly kind: "value";
  readonly same: Same<T>;
  readonly read: Reader<T>;
  readonly copy: Copy<T>;
}

/** A list: `same`, `read` and `copy` are of one item (the list itself is always copied). */
interface ListField<T> {
  readonly kind: "list";
  readonly same: Same<T>;
  readonly read: Reader<T>;
  readonly copy: Copy<T>;
}

/** A map keyed by user text: `same`, `read` and `copy` are of one value (the map is always copied). */
interface MapField<T> {
  readonly kind: "map";
  readonly same: Same<T>;
  readonly read: Reader<T>;
  readonly copy: Copy<T>;
}

type ItemOf<X> = X extends readonly (infer I)[] ? I : never;
type MapValueOf<X> = X extends ReadonlyMap<string, infer V> ? V : never;

type FieldOf<K extends DeltaKey> = K extends ListKey
  ? ListField<ItemOf<FlowState[K]>>
  : K extends MapKey
    ? MapField<MapValueOf<FlowState[K]>>
    : ValueField<FlowState[K]>;

/** A field as the generic code of delta.ts sees it. */
export type LooseField = ValueField<unknown> | ListField<unknown> | MapField<unknown>;

/** Equal as written: the same value, or two floats with the same bits (0.0 and -0.0 differ). */
function sameScalar(a: unknown, b: unknown): boolean {
  return a === b || (a instanceof PyFloat && b instanceof PyFloat && Object.is(a.v, b.v));
}

function isPlainObject(v: unknown): v is Readonly<Record<string, unknown>> {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Fixed-key objects of the state (the active iteration, the budget), compared field by field in
 * key order (they are small and rebuilt by working copies); leaves with sameScalar.
 */
function sameRecord(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isPlainObject(a) || !isPlainObject(b)) return sameScalar(a, b);
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const key = ka[i] as string;
    if (key !== kb[i] || !sameRecord(a[key], b[key])) return false;
  }
  return true;
}

/** Lists copied by cloneState (their items are shared): the same items in the same order. */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Maps of lists copied by cloneState (archived iterations): same keys in order, same items. */
function sameListMaps(
  a: ReadonlyMap<string, readonly unknown[]>,
  b: ReadonlyMap<string, readonly unknown[]>,
): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  const other = b.entries();
  for (const [key, list] of a) {
    const next = other.next();
    if (next.done === true || next.value[0] !== key || !sameItems(list, next.value[1])) return false;
  }
  return true;
}

const identical = <T>(a: T, b: T): boolean => a === b;
const shared = <T>(v: T): T => v;
const optionalString = nullable(readString);

const value = <T>(read: Reader<T>, same: Same<T> = identical, copy: Copy<T> = shared): ValueField<T> => ({
  kind: "value",
  same,
  read,
  copy,
});
const list = <T>(read: Reader<T>, same: Same<T> = identical, copy: Copy<T> = shared): ListField<T> => ({
  kind: "list",
  same,
  read,
  copy,
});
const map = <T>(read: Reader<T>, same: Same<T> = identical, copy: Copy<T> = shared): MapField<T> => ({
  kind: "map",
  same,
  read,
  copy,
});

const copyList = <T>(items: readonly T[]): T[] => [...items];
const copyListMap = <T>(m: ReadonlyMap<string, readonly T[]>): Map<string, T[]> =>
  new Map([...m].map(([k, items]) => [k, [...items]]));

/**
 * In FlowState (file) key order. `copy` follows cloneState (flow/clone.ts; the store does not
 * depend on flow, ARCHITECTURE.md); delta.test.ts checks that applyDelta copies at least what
 * cloneState copies. `same` is `===` for what working copies share (user data, records,
 * snapshots, strings and numbers) and one level of pointer compares for what cloneState copies
 * (rounds' lists, iteration lists, accumulators, the active iteration); the budget is rebuilt by
 * the calls that charge it and compared by its few fields.
 */
const TABLE: { readonly [K in DeltaKey]: FieldOf<K> } = {
  flow_id: value(readString),
  flow_name: value(readString),
  raw_spec: value(readString),
  inputs: value(readDict),
  step_outputs: map(readAny),
  records: list(readRecord),
  attempts: map(readInt),
  current_idx: value(readInt),
  checkpoints: map(readSnapshot),
  round: value(readInt),
  rounds: list(readRecords, sameItems, copyList),
  round_start_step_id: value(optionalString),
  terminal_status: value(nullable(oneOf(["killed", "budget_exhausted"]))),
  iterations: map(listOf(readIterationEntry), sameItems, copyList),
  archived_iterations: list(readIterations, sameListMaps, copyListMap),
  active_iteration: value(nullable(readActiveIteration), sameRecord, (a) => (a === null ? null : { ...a })),
  iteration_outcome: map(readString),
  iteration_best: map(readAny),
  iteration_accumulator: map(
    readAccumulator,
    (a, b) =>
      a === b || (a.dry_streak === b.dry_streak && sameItems(a.items, b.items) && sameItems(a.seen, b.seen)),
    (a) => ({ items: [...a.items], seen: [...a.seen], dry_streak: a.dry_streak }),
  ),
  parent_flow_id: value(optionalString),
  parent_step_id: value(optionalString),
  active_child_flow_id: value(optionalString),
  child_audits: map(listOf<Wire>(readAny), sameItems, copyList),
  parallel_tasks: map(readAny),
  cwd: value(readString),
  judge_history: map(readAny),
  judge_outcome: map(readAny),
  budget_state: value(nullable(readBudgetState), sameRecord),
  review_log: map(listOf<Wire>(readAny), sameItems, copyList),
};

/** Every field, widened for the generic loops (each one's own types are checked in TABLE). */
export const FIELDS: { readonly [K in DeltaKey]: LooseField } = TABLE as unknown as {
  readonly [K in DeltaKey]: LooseField;
};

/** The keys a delta may name, in file key order. */
export const DELTA_KEYS: readonly DeltaKey[] = Object.keys(TABLE) as DeltaKey[];
