// JSON text of wire values exactly as Python's `json.dumps` writes it (docs/reference/language.md §10.7.2):
// ensure_ascii, floats in repr form, `indent` as in Python (items on their own lines, `": "` after
// keys, empty containers as `[]` / `{}`), otherwise `", "` / `": "` separators on one line. Keys
// whose value is `undefined` are left out.
import { jsonFloat, jsonKey, jsonString } from "../../stdlib/values/json";
import { setOwnProperty as setOwn } from "../../stdlib/values/own-property";
import { PyDict, PyFloat, PyTuple, type PyValue } from "../../stdlib/values/value";
import type { Wire, WireObject } from "./wire";

export interface EncodeWireOptions {
  /** Spaces per level; absent: one line. */
  readonly indent?: number;
  /** Levels of arrays and objects allowed (the top container is level 1); deeper throws WireDepthError. */
  readonly maxDepth?: number;
}

/** The value nests deeper than `maxDepth`: nothing was encoded. */
export class WireDepthError extends Error {
  constructor(readonly limit: number) {
    super(`nested more than ${limit} levels deep`);
    this.name = "WireDepthError";
  }
}

type Entries = Iterable<readonly [string, Wire]>;

/**
 * An open array or object: what is left to write, and its indentation. An array's items or a
 * map's values are in `values`; a plain object's are read from `source` by key (no copy), its keys
 * whose value is `undefined` skipped as they come.
 */
class Frame {
  next = 0;
  wrote = false;
  constructor(
    /** Keys, or null for an array. */
    readonly keys: readonly string[] | null,
    /** Values parallel to `keys` (or the items), or null to read them from `source`. */
    readonly values: readonly Wire[] | null,
    readonly source: WireObject | null,
    readonly close: "]" | "}",
    readonly pad: string,
    readonly inner: string,
    /** What goes before each item: `\n` and `inner` when indenting, else nothing. */
    readonly before: string,
    /** What goes before the closing bracket: `\n` and `pad` when indenting, else nothing. */
    readonly end: string,
  ) {}
}

/**
 * Iterative (an explicit stack of open containers), so the depth of a value is never bounded by
 * the call stack; the text is joined in chunks, so no array of parts outgrows what V8 allows.
 * This encodes every delta, response and snapshot, so containers are walked by index.
 */
export function encodeWire(value: Wire, options: EncodeWireOptions = {}): string {
  const { indent } = options;
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const layout = indent === undefined ? ONE_LINE : { unit: " ".repeat(indent), pad: "" };
  text = "";
  pieces = 0;
  try {
    if (shallow(value, 1, maxDepth, layout)) return flat(text);
  } finally {
    text = "";
  }
  return encodeDeep(value, indent, maxDepth);
}

/**
 * Levels the one-line fast path writes by recursion; a deeper value is written again by the
 * iterative encoder, whose depth no call stack bounds.
 */
const SHALLOW_LEVELS = 64;
/** Pieces the fast path writes at once; a longer text is written by encodeDeep, in chunks. */
const SHALLOW_PARTS = 65_536;

/**
 * The fast path's text so far, and how many pieces it holds. Appending to a string allocates one
 * small rope node per piece, where an array of parts grows (copying itself) and is joined; the
 * rope is flattened once at the end (`flat`), so no caller keeps the pieces alive. Nothing the
 * fast path calls encodes another value, so one text at a time is enough.
 */
let text = "";
let pieces = 0;

/**
 * `s` as one flat string: V8 flattens a rope when it converts it to a number (the result is not
 * used), so a text kept for later (a memory store's delta) holds one buffer instead of a rope of
 * every piece for the collector to trace.
 */
function flat(s: string): string {
  Number(s);
  return s;
}

/** How the fast path lays out a container: null for one line, else the indent unit and the container's own indentation. */
type Layout = { readonly unit: string; readonly pad: string } | null;
const ONE_LINE: Layout = null;

/**
 * By recursion and with no frame objects: a delta or a response is a few hundred characters a
 * few levels deep, and allocating per container was most of its encoding. Appends the same texts
 * encodeDeep writes; false (the text left half written) when the value nests deeper than
 * SHALLOW_LEVELS or is longer than SHALLOW_PARTS pieces. Throws WireDepthError past `maxDepth` as
 * encodeDeep does.
 */
function shallow(v: Wire, level: number, maxDepth: number, layout: Layout): boolean {
  if (typeof v !== "object" || v === null || v instanceof PyFloat) {
    text += scalarText(v);
    pieces++;
    return true;
  }
  const list = Array.isArray(v) || v instanceof PyTuple;
  const dict = !list && (v instanceof PyDict || v instanceof Map);
  if (!list && !dict && !isPlainObject(v)) {
    text += scalarText(v); // throws: not a wire value
    return true;
  }
  if (level > maxDepth) throw new WireDepthError(maxDepth);
  if (level > SHALLOW_LEVELS || pieces > SHALLOW_PARTS) return false;
  const next = level + 1;
  // What goes before the first item, between items and before the closing bracket.
  let first = "";
  let between = ", ";
  let end = "";
  let inner: Layout = ONE_LINE;
  if (layout !== null) {
    inner = { unit: layout.unit, pad: layout.pad + layout.unit };
    first = `\n${inner.pad}`;
    between = `,${first}`;
    end = `\n${layout.pad}`;
  }
  if (list) {
    const items: readonly Wire[] = v instanceof PyTuple ? v.items : (v as readonly Wire[]);
    if (items.length === 0) {
      text += EMPTY_ARRAY;
      pieces++;
      return true;
    }
    text += layout === null ? "[" : `[${first}`;
    pieces++;
    for (let i = 0; i < items.length; i++) {
      if (i > 0) {
        text += between;
        pieces++;
      }
      if (pieces > SHALLOW_PARTS || !shallow(items[i], next, maxDepth, inner)) return false;
    }
    text += layout === null ? "]" : `${end}]`;
    pieces++;
    return true;
  }
  let wrote = false;
  if (dict) {
    const entries: Iterable<readonly [PyValue | string, Wire]> =
      v instanceof PyDict ? v.entries.values() : (v as ReadonlyMap<string, Wire>);
    for (const [k, val] of entries) {
      if (val === undefined) continue;
      text += wrote ? between : `{${first}`;
      wrote = true;
      text += keyText(typeof k === "string" ? k : jsonKey(k));
      pieces += 2;
      if (pieces > SHALLOW_PARTS || !shallow(val, next, maxDepth, inner)) return false;
    }
  } else {
    const source = v as WireObject;
    const keys = Object.keys(source);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const val = source[k];
      if (val === undefined) continue;
      text += wrote ? between : `{${first}`;
      wrote = true;
      text += keyText(k);
      pieces += 2;
      if (pieces > SHALLOW_PARTS || !shallow(val, next, maxDepth, inner)) return false;
    }
  }
  text += wrote ? (layout === null ? "}" : `${end}}`) : EMPTY_OBJECT;
  pieces++;
  return true;
}

/** encodeWire by an explicit stack of open containers. */
function encodeDeep(value: Wire, indent: number | undefined, maxDepth: number): string {
  const out = new TextChunks();
  const open: Frame[] = [];
  let pending = true;
  let v: Wire = value;
  for (;;) {
    if (pending) {
      pending = false;
      const frame = openFrame(v, open[open.length - 1]?.inner ?? "", indent);
      if (frame === null) out.push(scalarText(v));
      else if (open.length + 1 > maxDepth) throw new WireDepthError(maxDepth);
      else if (frame === EMPTY_ARRAY || frame === EMPTY_OBJECT) out.push(frame);
      else {
        out.push(frame.close === "]" ? "[" : "{");
        open.push(frame);
      }
    }
    const top = open[open.length - 1];
    if (top === undefined) return out.join();
    const item = nextItem(top);
    if (item === DONE) {
      open.pop();
      out.push(top.end + top.close);
      continue;
    }
    if (top.wrote) out.push(indent === undefined ? ", " : ",");
    top.wrote = true;
    if (top.keys !== null) out.push(top.before + keyText(top.keys[top.next - 1]!));
    else if (indent !== undefined) out.push(top.before);
    v = item;
    pending = true;
  }
}

/**
 * `"key": `, for keys up to 64 characters kept once encoded (a few thousand: the fixed keys of
 * responses and flow state, and the keys of user maps seen most): every response and delta
 * writes the same keys again.
 */
const KEY_CACHE_LIMIT = 4096;
const keyTexts = new Map<string, string>();

function keyText(key: string): string {
  const known = keyTexts.get(key);
  if (known !== undefined) return known;
  const text = `${jsonString(key)}: `;
  if (key.length <= 64 && keyTexts.size < KEY_CACHE_LIMIT) keyTexts.set(key, text);
  return text;
}

const DONE = Symbol("done");
const EMPTY_ARRAY = "[]";
const EMPTY_OBJECT = "{}";

/** The frame's next value to write (its index is `next - 1`), or DONE. */
function nextItem(frame: Frame): Wire | typeof DONE {
  const { keys, values, source } = frame;
  const length = (keys ?? values!).length;
  while (frame.next < length) {
    const i = frame.next++;
    const item = values !== null ? values[i] : source![keys![i]!];
    if (item !== undefined || keys === null) return item;
  }
  return DONE;
}

/** A frame for a container (or the text of an empty one), null for a scalar. */
function openFrame(
  v: Wire,
  pad: string,
  indent: number | undefined,
): Frame | typeof EMPTY_ARRAY | typeof EMPTY_OBJECT | null {
  if (typeof v !== "object" || v === null || v instanceof PyFloat) return null;
  const inner = indent === undefined ? "" : pad + " ".repeat(indent);
  const before = indent === undefined ? "" : `\n${inner}`;
  const end = indent === undefined ? "" : `\n${pad}`;
  if (Array.isArray(v) || v instanceof PyTuple) {
    const items: readonly Wire[] = v instanceof PyTuple ? v.items : (v as readonly Wire[]);
    return items.length === 0 ? EMPTY_ARRAY : new Frame(null, items, null, "]", pad, inner, before, end);
  }
  if (v instanceof PyDict || v instanceof Map) {
    const keys: string[] = [];
    const values: Wire[] = [];
    const entries: Iterable<readonly [PyValue | string, Wire]> =
      v instanceof PyDict ? v.entries.values() : (v as ReadonlyMap<string, Wire>);
    for (const [k, val] of entries) {
      if (val === undefined) continue;
      keys.push(typeof k === "string" ? k : jsonKey(k));
      values.push(val);
    }
    return keys.length === 0 ? EMPTY_OBJECT : new Frame(keys, values, null, "}", pad, inner, before, end);
  }
  if (!isPlainObject(v)) return null; // scalarText names it
  const source = v as WireObject;
  const keys = Object.keys(source);
  return keys.some((k) => source[k] !== undefined)
    ? new Frame(keys, null, source, "}", pad, inner, before, end)
    : EMPTY_OBJECT;
}

/** Parts of a text, joined every few thousand parts. */
class TextChunks {
  private parts: string[] = [];
  private readonly chunks: string[] = [];

  push(text: string): void {
    this.parts.push(text);
    if (this.parts.length >= 8192) {
      this.chunks.push(this.parts.join(""));
      this.parts = [];
    }
  }

  join(): string {
    this.chunks.push(this.parts.join(""));
    this.parts = [];
    return this.chunks.join("");
  }
}

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

function scalarText(v: Wire): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "bigint") return String(v);
  // A JS number is an int when integral (the value model's rule); any other number is written as
  // Python writes the float (repr form: `1e-07`, not JS's `1e-7`).
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : floatText(v);
  if (typeof v === "string") return encodeString(v);
  if (v instanceof PyFloat) return floatText(v.v);
  throw new TypeError(`encodeWire: not a wire value (${Object.prototype.toString.call(v)})`);
}

/**
 * jsonFloat(x), faster for the common float: where both write fixed notation with a fraction —
 * not integral, |x| in [1e-4, 1e16) — JS's `String` and Python's repr give the same text (both
 * the shortest digits that read back as x); elsewhere (exponents, `.0`, NaN, infinities) jsonFloat.
 */
export function floatText(x: number): string {
  const a = Math.abs(x);
  return a >= 1e-4 && a < 1e16 && !Number.isInteger(x) ? String(x) : jsonFloat(x);
}

function* dictEntries(d: PyDict): Entries {
  for (const [k, val] of d.entries.values()) yield [jsonKey(k), val];
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Plain JS data (floats become numbers, big integers stay bigint); for tests and JSON-only
 * consumers. Iterative, as encodeWire. `bigints: "number"` gives data JSON.stringify can write:
 * an integer beyond JSON's exact range becomes the nearest number (encodeWire keeps it exactly).
 */
export function wireToPlain(v: Wire, options: { readonly bigints?: "keep" | "number" } = {}): unknown {
  const asNumber = options.bigints === "number";
  const shallowOut = plainShallow(v, 1, asNumber);
  return shallowOut === TOO_DEEP ? plainDeep(v, asNumber) : shallowOut;
}

const TOO_DEEP = Symbol("too deep");

/**
 * wireToPlain by recursion, allocating only what it returns (a response is a few levels deep);
 * TOO_DEEP past SHALLOW_LEVELS, and then plainDeep converts the value again. Where two keys of a
 * PyDict have the same JSON text, the first entry's value is kept, as plainDeep keeps it.
 */
function plainShallow(value: Wire, level: number, asNumber: boolean): unknown {
  if (value === undefined || value === null || typeof value !== "object") {
    return typeof value === "bigint" && asNumber ? Number(value) : (value ?? null);
  }
  if (value instanceof PyFloat) return value.v;
  if (level > SHALLOW_LEVELS) return TOO_DEEP;
  const next = level + 1;
  if (Array.isArray(value) || value instanceof PyTuple) {
    const items: readonly Wire[] = value instanceof PyTuple ? value.items : (value as readonly Wire[]);
    const out: unknown[] = new Array(items.length);
    for (let i = 0; i < items.length; i++) {
      const x = plainShallow(items[i], next, asNumber);
      if (x === TOO_DEEP) return TOO_DEEP;
      out[i] = x;
    }
    return out;
  }
  // Filled as an ordinary object and given its null prototype at the end: Object.create(null)
  // makes an object in V8's slow dictionary mode, which costs more to fill and to read, and every
  // in-process response is made of these.
  const out: Record<string, unknown> = {};
  if (value instanceof PyDict) {
    for (const [k, val] of value.entries.values()) {
      if (val === undefined) continue;
      const key = jsonKey(k);
      if (Object.hasOwn(out, key)) continue;
      const x = plainShallow(val, next, asNumber);
      if (x === TOO_DEEP) return TOO_DEEP;
      setOwn(out, key, x);
    }
  } else if (value instanceof Map) {
    for (const [k, val] of value as ReadonlyMap<string, Wire>) {
      if (val === undefined) continue;
      const x = plainShallow(val, next, asNumber);
      if (x === TOO_DEEP) return TOO_DEEP;
      setOwn(out, k, x);
    }
  } else {
    const source = value as WireObject;
    const copied = plainCopy(source, next, asNumber);
    if (copied !== null) return copied;
    // for-in, not Object.keys (an array per object of every response): a wire object is a plain
    // object, whose own keys for-in lists in the same order, and no prototype of one has
    // enumerable keys.
    for (const k in source) {
      const val = source[k];
      if (val === undefined) continue;
      const x = plainShallow(val, next, asNumber);
      if (x === TOO_DEEP) return TOO_DEEP;
      setOwn(out, k, x);
    }
  }
  return Object.setPrototypeOf(out, null);
}

/**
 * A plain object converted as a copy of it whose values are then converted in place: a spread
 * copies the object's shape at once, where adding its keys one by one to an empty object took a
 * transition per key (most of a response's conversion). The copy keeps the keys in their order,
 * `__proto__` as an own property. Null when a value is `undefined` (its key is left out: the caller
 * builds the object key by key); TOO_DEEP as plainShallow.
 */
function plainCopy(source: WireObject, next: number, asNumber: boolean): unknown {
  const out: Record<string, unknown> = { ...source };
  for (const k in out) {
    const val = out[k] as Wire;
    if (val === undefined) return null;
    if (val === null || (typeof val !== "object" && (typeof val !== "bigint" || !asNumber))) continue;
    const x = plainShallow(val, next, asNumber);
    if (x === TOO_DEEP) return TOO_DEEP;
    out[k] = x;
  }
  return Object.setPrototypeOf(out, null);
}

/** wireToPlain by an explicit work list, for values of any depth. */
function plainDeep(v: Wire, asNumber: boolean): unknown {
  const root: Record<string, unknown> = { value: null };
  const work: {
    readonly v: Wire;
    readonly into: Record<string | number, unknown>;
    readonly at: string | number;
  }[] = [{ v, into: root, at: "value" }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { v: value, into, at } = item;
    if (value === undefined || value === null || typeof value !== "object") {
      into[at] = typeof value === "bigint" && asNumber ? Number(value) : (value ?? null);
    } else if (value instanceof PyFloat) {
      into[at] = value.v;
    } else if (Array.isArray(value) || value instanceof PyTuple) {
      const items: readonly Wire[] = value instanceof PyTuple ? value.items : (value as readonly Wire[]);
      const out: unknown[] = new Array(items.length).fill(null);
      into[at] = out;
      const slots = out as unknown as Record<number, unknown>;
      items.forEach((x, i) => {
        work.push({ v: x, into: slots, at: i });
      });
    } else {
      const out: Record<string, unknown> = Object.create(null);
      into[at] = out;
      const entries: Entries =
        value instanceof PyDict
          ? dictEntries(value)
          : value instanceof Map
            ? (value as ReadonlyMap<string, Wire>)
            : Object.entries(value as WireObject);
      for (const [k, val] of entries) {
        if (val === undefined) continue;
        out[k] = null; // the key's place in the insertion order
        work.push({ v: val, into: out, at: k });
      }
    }
  }
  return root.value;
}
