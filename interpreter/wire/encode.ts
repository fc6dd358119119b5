// JSON text of wire values exactly as Python's `json.dumps` writes it (language.md §10.7.2):
// ensure_ascii, floats in repr form, `indent` as in Python (items on their own lines, `": "` after
// keys, empty containers as `[]` / `{}`), otherwise `", "` / `": "` separators on one line. Keys
// whose value is `undefined` are left out.
import { jsonFloat, jsonKey, jsonString } from "../../stdlib/values/json";
import { PyDict, PyFloat, PyTuple } from "../../stdlib/values/value";
import type { Wire, WireObject } from "./wire";

export interface EncodeWireOptions {
  /** Spaces per level; absent: one line. */
  readonly indent?: number;
}

export function encodeWire(value: Wire, options: EncodeWireOptions = {}): string {
  const out: string[] = [];
  write(value, options.indent, "", out);
  return out.join("");
}

type Entries = Iterable<readonly [string, Wire]>;

// A flow's spec text is written into every commit of that flow: its encoding is kept for the last
// long string seen, so a commit does not escape the same few kilobytes again.
const LONG_STRING = 512;
let lastLong: string | null = null;
let lastLongEncoded = "";

function encodeString(s: string): string {
  if (s.length < LONG_STRING) return jsonString(s);
  if (s !== lastLong) {
    lastLongEncoded = jsonString(s);
    lastLong = s;
  }
  return lastLongEncoded;
}

function write(v: Wire, indent: number | undefined, pad: string, out: string[]): void {
  if (v === null || v === undefined) out.push("null");
  else if (typeof v === "boolean") out.push(v ? "true" : "false");
  else if (typeof v === "bigint") out.push(String(v));
  // A JS number is an int when integral (the value model's rule); any other number is written as
  // Python writes the float (repr form: `1e-07`, not JS's `1e-7`).
  else if (typeof v === "number") out.push(Number.isInteger(v) ? String(v) : jsonFloat(v));
  else if (typeof v === "string") out.push(encodeString(v));
  else if (v instanceof PyFloat) out.push(jsonFloat(v.v));
  else if (Array.isArray(v)) writeArray(v as readonly Wire[], indent, pad, out);
  else if (v instanceof PyTuple) writeArray(v.items, indent, pad, out);
  else if (v instanceof PyDict) writeObject(dictEntries(v), indent, pad, out);
  else if (v instanceof Map) writeObject(v as ReadonlyMap<string, Wire>, indent, pad, out);
  else if (isPlainObject(v)) writeObject(Object.entries(v as WireObject), indent, pad, out);
  else throw new TypeError(`encodeWire: not a wire value (${Object.prototype.toString.call(v)})`);
}

function* dictEntries(d: PyDict): Entries {
  for (const [k, val] of d.entries.values()) yield [jsonKey(k), val];
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function writeArray(items: readonly Wire[], indent: number | undefined, pad: string, out: string[]): void {
  if (items.length === 0) {
    out.push("[]");
    return;
  }
  const inner = indent === undefined ? "" : pad + " ".repeat(indent);
  out.push("[");
  items.forEach((item, i) => {
    if (i > 0) out.push(indent === undefined ? ", " : ",");
    if (indent !== undefined) out.push("\n", inner);
    write(item, indent, inner, out);
  });
  if (indent !== undefined) out.push("\n", pad);
  out.push("]");
}

function writeObject(entries: Entries, indent: number | undefined, pad: string, out: string[]): void {
  const inner = indent === undefined ? "" : pad + " ".repeat(indent);
  let first = true;
  out.push("{");
  for (const [k, val] of entries) {
    if (val === undefined) continue;
    if (!first) out.push(indent === undefined ? ", " : ",");
    if (indent !== undefined) out.push("\n", inner);
    first = false;
    out.push(jsonString(k), ": ");
    write(val, indent, inner, out);
  }
  if (!first && indent !== undefined) out.push("\n", pad);
  out.push("}");
}

/** Plain JS data (floats become numbers, big integers stay bigint); for tests and JSON-only consumers. */
export function wireToPlain(v: Wire): unknown {
  if (v === undefined || v === null || typeof v !== "object") return v ?? null;
  if (v instanceof PyFloat) return v.v;
  if (Array.isArray(v)) return (v as readonly Wire[]).map(wireToPlain);
  if (v instanceof PyTuple) return v.items.map(wireToPlain);
  const out: Record<string, unknown> = Object.create(null);
  const entries: Entries =
    v instanceof PyDict
      ? dictEntries(v)
      : v instanceof Map
        ? (v as ReadonlyMap<string, Wire>)
        : Object.entries(v as WireObject);
  for (const [k, val] of entries) if (val !== undefined) out[k] = wireToPlain(val);
  return out;
}
