// The journal's entries applied to a flow file's plain JSON (JSON.parse of its text), for a reader
// that wants a few fields of a long flow without decoding it into a state (the web page's first
// answer): the same groups as applyDeltaInPlace (delta.ts) — `set` replaces a value, `append` adds
// items at the end of a list, `delete` removes map keys and then `put` writes entries — on the
// flow file's key names, which the entries share (both are written by the same encoder).
import { DELTA_KEYS } from "./delta-fields";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const STATE_KEYS: ReadonlySet<string> = new Set(DELTA_KEYS);
const ENTRY_KEYS: ReadonlySet<string> = new Set(["revision", "status", "set", "append", "put", "delete"]);

/** Writes `key` as an own property (a key `__proto__` from a flow's data must not set a prototype). */
function define(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The JSON of a text, or undefined when it is not plain JSON (NaN, …: only the flow reader knows). */
export function plainJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Applies the entry texts to `state` in place and says whether it ends at `revision`. False on
 * anything decodeDelta would refuse or a reader would not expect (an entry out of order, an unknown
 * key, a key in two groups but `delete` and `put` of one map, a target of the wrong shape): the
 * caller then reads the flow the checked way, which says why.
 */
export function applyEntriesToPlain(state: Json, entries: readonly string[], revision: number): boolean {
  for (const text of entries) {
    const entry = plainJson(text);
    if (!isObject(entry) || typeof state.revision !== "number" || entry.revision !== state.revision + 1)
      return false;
    for (const key in entry) if (!ENTRY_KEYS.has(key)) return false;
    const { set = {}, append = {}, put = {}, delete: removed = {} } = entry;
    if (!isObject(set) || !isObject(append) || !isObject(put) || !isObject(removed)) return false;
    const seen = new Set<string>();
    for (const group of [set, append, { ...put, ...removed }])
      for (const key in group) {
        if (!STATE_KEYS.has(key) || seen.has(key)) return false;
        seen.add(key);
      }
    for (const key in set) define(state, key, set[key]);
    for (const key in append) {
      const list = state[key];
      const items = append[key];
      if (!Array.isArray(list) || !Array.isArray(items)) return false;
      for (const item of items) list.push(item);
    }
    for (const key in removed) {
      const map = state[key];
      const keys = removed[key];
      if (!isObject(map) || !Array.isArray(keys)) return false;
      for (const k of keys) {
        if (typeof k !== "string") return false;
        delete map[k];
      }
    }
    for (const key in put) {
      const map = state[key];
      const values = put[key];
      if (!isObject(map) || !isObject(values)) return false;
      for (const k in values) define(map, k, values[k]);
    }
    state.revision = entry.revision;
    state.status = entry.status;
  }
  return state.revision === revision || entries.length === 0;
}
