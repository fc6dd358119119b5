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

/** An open array or object: its remaining entries (key null for array items) and its indentation. */
interface Frame {
  readonly entries: Iterator<readonly [string | null, Wire]>;
  readonly close: "]" | "}";
  readonly pad: string;
  readonly inner: string;
  first: boolean;
}

/**
 * Iterative (an explicit stack of open containers), so the depth of a value is never bounded by
 * the call stack; the text is joined in chunks, so no array of parts outgrows what V8 allows.
 */
export function encodeWire(value: Wire, options: EncodeWireOptions = {}): string {
  const { indent } = options;
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const out = new TextChunks();
  const open: Frame[] = [];
  let next: { readonly value: Wire } | null = { value };
  for (;;) {
    if (next !== null) {
      const v = next.value;
      next = null;
      const container = containerOf(v);
      if (container === null) out.push(scalarText(v));
      else if (open.length + 1 > maxDepth) throw new WireDepthError(maxDepth);
      else if (container.empty) out.push(container.close === "]" ? "[]" : "{}");
      else {
        const pad = open[open.length - 1]?.inner ?? "";
        const inner = indent === undefined ? "" : pad + " ".repeat(indent);
        out.push(container.close === "]" ? "[" : "{");
        open.push({ entries: container.entries, close: container.close, pad, inner, first: true });
      }
    }
    const top = open[open.length - 1];
    if (top === undefined) return out.join();
    const step = top.entries.next();
    if (step.done === true) {
      open.pop();
      if (!top.first && indent !== undefined) out.push("\n", top.pad);
      out.push(top.close);
      continue;
    }
    const [key, item] = step.value;
    if (!top.first) out.push(indent === undefined ? ", " : ",");
    if (indent !== undefined) out.push("\n", top.inner);
    top.first = false;
    if (key !== null) out.push(jsonString(key), ": ");
    next = { value: item };
  }
}

/** Parts of a text, joined every few thousand parts. */
class TextChunks {
  private parts: string[] = [];
  private readonly chunks: string[] = [];

  push(...texts: string[]): void {
    for (const t of texts) this.parts.push(t);
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
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : jsonFloat(v);
  if (typeof v === "string") return encodeString(v);
  if (v instanceof PyFloat) return jsonFloat(v.v);
  throw new TypeError(`encodeWire: not a wire value (${Object.prototype.toString.call(v)})`);
}

interface Container {
  readonly entries: Iterator<readonly [string | null, Wire]>;
  readonly close: "]" | "}";
  /** No entries to write (an object whose values are all `undefined` is empty too). */
  readonly empty: boolean;
}

function containerOf(v: Wire): Container | null {
  if (typeof v !== "object" || v === null || v instanceof PyFloat) return null;
  if (Array.isArray(v) || v instanceof PyTuple) {
    const items: readonly Wire[] = v instanceof PyTuple ? v.items : (v as readonly Wire[]);
    return { entries: arrayEntries(items), close: "]", empty: items.length === 0 };
  }
  const all: Entries | null =
    v instanceof PyDict
      ? dictEntries(v)
      : v instanceof Map
        ? (v as ReadonlyMap<string, Wire>)
        : isPlainObject(v)
          ? Object.entries(v as WireObject)
          : null;
  if (all === null) return null; // scalarText names it
  const entries = definedEntries(all);
  const first = entries.next();
  if (first.done === true) return { entries, close: "}", empty: true };
  return { entries: prepend(first.value, entries), close: "}", empty: false };
}

function* arrayEntries(items: readonly Wire[]): Iterator<readonly [null, Wire]> {
  for (const item of items) yield [null, item];
}

/** Keys whose value is `undefined` are left out. */
function* definedEntries(entries: Entries): Iterator<readonly [string, Wire]> {
  for (const entry of entries) if (entry[1] !== undefined) yield entry;
}

function* prepend<T>(head: T, rest: Iterator<T>): Iterator<T> {
  yield head;
  for (let r = rest.next(); r.done !== true; r = rest.next()) yield r.value;
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
 * consumers. Iterative, as encodeWire.
 */
export function wireToPlain(v: Wire): unknown {
  const root: Record<string, unknown> = { value: null };
  const work: {
    readonly v: Wire;
    readonly into: Record<string | number, unknown>;
    readonly at: string | number;
  }[] = [{ v, into: root, at: "value" }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { v: value, into, at } = item;
    if (value === undefined || value === null || typeof value !== "object") {
      into[at] = value ?? null;
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
