// Hashing and dict access (docs/reference/language.md §10.8.4): equal Python keys map to one DictKey.
//
// DictKey encoding: None → null; bool/int/integral float → the int (number or bigint, so 1, 1.0
// and True coincide, -0.0 → 0); other floats → the number itself (never integral, so no clash);
// NaN, generators and bound methods → the object (identity); str → itself, except that strings
// starting with \u0001 get the prefix "\u0001S"; tuples → "\u0001T" + a structural encoding.
import { typeError } from "./errors";
import {
  type DictKey,
  MAX_SAFE,
  PyBoundMethod,
  PyDict,
  PyFloat,
  PyGenerator,
  PyTuple,
  type PyValue,
  typeName,
} from "./value";

const ESC = "\u0001";
const ESC_CODE = 1;

function unhashable(v: PyValue): never {
  throw typeError(`unhashable type: '${typeName(v)}'`);
}

function floatKey(f: PyFloat): DictKey {
  const x = f.v;
  if (Number.isNaN(x)) return f;
  if (Number.isInteger(x)) return Math.abs(x) <= MAX_SAFE ? x + 0 : BigInt(x);
  return x;
}

const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;
function objectId(o: object): number {
  let id = objectIds.get(o);
  if (id === undefined) {
    id = nextObjectId++;
    objectIds.set(o, id);
  }
  return id;
}

function encodeKeyPart(k: DictKey, out: string[]): void {
  if (k === null) out.push("N");
  else if (typeof k === "number" || typeof k === "bigint") out.push(`n${k}`);
  else if (typeof k === "string") out.push(`s${k.length}:${k}`);
  else if (typeof k === "object") out.push(`o${objectId(k)};`);
}

function tupleKey(t: PyTuple): string {
  const out: string[] = [ESC, "T"];
  encodeTuple(t, out);
  return out.join("");
}

function encodeTuple(t: PyTuple, out: string[]): void {
  out.push(`t${t.items.length}(`);
  for (const item of t.items) {
    if (item instanceof PyTuple) encodeTuple(item, out);
    else encodeKeyPart(hashKey(item), out);
  }
  out.push(")");
}

function strKey(s: string): string {
  return s.charCodeAt(0) === ESC_CODE ? `${ESC}S${s}` : s;
}

/** The dict key of a value; TypeError `unhashable type: '<t>'` for lists, dicts, namespaces, views. */
export function hashKey(v: PyValue): DictKey {
  switch (typeof v) {
    case "string":
      return strKey(v);
    case "number":
    case "bigint":
      return v;
    case "boolean":
      return v ? 1 : 0;
  }
  if (v === null) return null;
  if (v instanceof PyFloat) return floatKey(v);
  if (v instanceof PyTuple) return tupleKey(v);
  if (v instanceof PyGenerator) return v;
  if (v instanceof PyBoundMethod) {
    hashKey(v.receiver); // Python hashes a bound method through its receiver
    return v;
  }
  return unhashable(v);
}

/** Whether `hashKey(v)` succeeds. */
export function isHashable(v: PyValue): boolean {
  if (v === null || typeof v !== "object") return true;
  if (v instanceof PyFloat || v instanceof PyGenerator) return true;
  if (v instanceof PyTuple) return v.items.every(isHashable);
  if (v instanceof PyBoundMethod) return isHashable(v.receiver);
  return false;
}

/** Sets `key` to `value` (a new key is appended; an existing key keeps its original key object). */
export function dictSet(d: PyDict, key: PyValue, value: PyValue): void {
  const hk = hashKey(key);
  const entry = d.entries.get(hk);
  if (entry) entry[1] = value;
  else d.entries.set(hk, [key, value]);
}

/** A dict from key/value pairs, in order; later values win, the first key object is kept. */
export function makeDict(entries: Iterable<readonly [PyValue, PyValue]>): PyDict {
  const d = new PyDict();
  for (const [k, v] of entries) dictSet(d, k, v);
  return d;
}

export function dictGet(d: PyDict, key: PyValue): PyValue | undefined {
  return d.entries.get(hashKey(key))?.[1];
}

export function dictHas(d: PyDict, key: PyValue): boolean {
  return d.entries.has(hashKey(key));
}

/** Fast path for string keys. */
export function dictGetStr(d: PyDict, key: string): PyValue | undefined {
  return d.entries.get(strKey(key))?.[1];
}

export function dictKeys(d: PyDict): PyValue[] {
  const out: PyValue[] = [];
  for (const e of d.entries.values()) out.push(e[0]);
  return out;
}

export function dictValues(d: PyDict): PyValue[] {
  const out: PyValue[] = [];
  for (const e of d.entries.values()) out.push(e[1]);
  return out;
}

/** The (key, value) pairs as Python 2-tuples. */
export function dictItems(d: PyDict): PyTuple[] {
  const out: PyTuple[] = [];
  for (const e of d.entries.values()) out.push(new PyTuple([e[0], e[1]]));
  return out;
}
