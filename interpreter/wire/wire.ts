// What tool responses and persisted state are made of: user data (PyValue of the JSON kinds), plain
// objects with fixed, non-numeric keys (key order = insertion order), Maps for anything keyed by
// user text (insertion order kept even for keys like "1"), and arrays. `encodeWire` (encode.ts)
// turns it into JSON text exactly as Python's `json.dumps` would (docs/reference/language.md §10.7.2); `wireToPlain` gives
// plain JS data for tests and for front ends that need it.
import type { PyValue } from "../../stdlib/values/value";

export type Wire = PyValue | WireObject | ReadonlyMap<string, Wire> | readonly Wire[] | undefined;

/** A plain object with fixed keys; an `undefined` value means "key absent" (not encoded). */
export interface WireObject {
  readonly [key: string]: Wire;
}

/** A tool response: a plain object whose first key is usually `status`. */
export type Response = WireObject;
