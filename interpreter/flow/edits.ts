// Every in-place change of a flow state's maps and lists (and of the dispatch-time maps) goes
// through here: on a working copy whose container is still the committed one, the
// change is recorded in the run's EditLog (edit-log.ts) so that it can be undone and turned into a
// delta; anything else (a field reassigned in this call, a flow created in this call) is changed
// directly. Replacing a field (`state.records = []`) needs nothing: the working state is a copy.

import type { FlowState } from "../base/flow-state";
import type { FlowRun, FlowTiming } from "./run";

/** The fields of FlowState that hold maps, with their types. */
type MapFields = {
  [K in keyof FlowState as FlowState[K] extends Map<string, unknown> ? K : never]: FlowState[K];
};
/** The fields of FlowState that hold lists, with their types. */
type ListFields = {
  [K in keyof FlowState as FlowState[K] extends unknown[] ? K : never]: FlowState[K];
};

export type MapField = keyof MapFields;
export type ListField = keyof ListFields;
type EntryOf<K extends MapField> = MapFields[K] extends Map<string, infer V> ? V : never;
type ItemOf<K extends ListField> = ListFields[K] extends (infer I)[] ? I : never;
type TimingMap = "stepDispatchedAt" | "gateDispatchedAt";

function mapOf(run: FlowRun, key: MapField): Map<string, unknown> {
  const fields: MapFields = run.state;
  return fields[key];
}

/** `state[key].set(mapKey, value)`. */
export function putEntry<K extends MapField>(run: FlowRun, key: K, mapKey: string, value: EntryOf<K>): void {
  putIn(run, mapOf(run, key), mapKey, value);
}

/** `state[key].delete(mapKey)`. */
export function deleteEntry(run: FlowRun, key: MapField, mapKey: string): void {
  const map = mapOf(run, key);
  const log = run.edits;
  if (log?.shares(map)) log.delete(map, mapKey);
  else map.delete(mapKey);
}

/** `state[key].push(item)`. */
export function appendItem<K extends ListField>(run: FlowRun, key: K, item: ItemOf<K>): void {
  const fields: ListFields = run.state;
  const list: unknown[] = fields[key];
  const log = run.edits;
  if (log?.shares(list)) log.push(list, item);
  else list.push(item);
}

/** `timing[which].set(stepId, ms)`: the dispatch times are shared with the committed run too. */
export function putTiming(run: FlowRun, which: TimingMap, stepId: string, ms: number): void {
  const timing: FlowTiming = run.timing;
  putIn(run, timing[which], stepId, ms);
}

function putIn(run: FlowRun, map: Map<string, unknown>, key: string, value: unknown): void {
  const log = run.edits;
  if (log?.shares(map)) log.put(map, key, value);
  else map.set(key, value);
}
