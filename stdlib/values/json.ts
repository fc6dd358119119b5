// JSON decoding and encoding (docs/reference/language.md §10.7.2) and canonical JSON (docs/reference/language.md §10.16).
import { dictSet } from "./dict";
import { floatRepr, str } from "./repr";
import { compareCodePoints } from "./strings";
import {
  normInt,
  PyBoundMethod,
  PyDict,
  PyFloat,
  PyGenerator,
  PyNamespace,
  PyTuple,
  type PyValue,
  PyView,
} from "./value";

export { JsonDepthError, JsonSyntaxError, parseJson } from "./json-parse";

/** A value from JSON.parse (or any plain JS data): integral numbers become ints (lossy for floats). */
export function fromJsonValue(v: unknown): PyValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case "boolean":
    case "string":
      return v;
    case "bigint":
      return normInt(v);
    case "number":
      if (!Number.isInteger(v)) return new PyFloat(v);
      return Number.isSafeInteger(v) ? v + 0 : normInt(BigInt(v));
  }
  if (Array.isArray(v)) return v.map(fromJsonValue);
  if (typeof v === "object") {
    // Every argument the fuzzer sends goes through here: keys walked in place (Object.entries'
    // order, own enumerable string keys), not copied as pairs twice.
    const o = v as Record<string, unknown>;
    const d = new PyDict();
    for (const k in o) if (Object.hasOwn(o, k)) dictSet(d, k, fromJsonValue(o[k]));
    return d;
  }
  return null;
}

/** A float as JSON text: repr form, or NaN / Infinity / -Infinity (docs/reference/language.md §10.7.2). */
export function jsonFloat(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Number.POSITIVE_INFINITY) return "Infinity";
  if (x === Number.NEGATIVE_INFINITY) return "-Infinity";
  return floatRepr(x);
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function unicodeEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

// What must be escaped: with ensureAscii, also every unit outside 0x20–0x7E. The
// non-global ones answer `test` without state (no lastIndex); the global ones drive `replace`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what gets escaped
const ESCAPE_ASCII = /[\\"\u0000-\u001f\u007f-\uffff]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what gets escaped
const ESCAPE = /[\\"\u0000-\u001f]/;
const ESCAPE_ASCII_ALL = new RegExp(ESCAPE_ASCII.source, "g");
const ESCAPE_ALL = new RegExp(ESCAPE.source, "g");

/** A JSON string literal like Python's json: with ensureAscii every unit outside 0x20–0x7E is \u-escaped. */
export function jsonString(s: string, ensureAscii = true): string {
  // Most strings (keys, ids, plain text) need no escape: one scan, no replacement.
  if (!(ensureAscii ? ESCAPE_ASCII : ESCAPE).test(s)) return `"${s}"`;
  const all = ensureAscii ? ESCAPE_ASCII_ALL : ESCAPE_ALL;
  return `"${s.replace(all, (ch) => SHORT_ESCAPES[ch] ?? unicodeEscape(ch))}"`;
}

/** A non-string dict key converted as Python's json module does. */
export function jsonKey(k: PyValue): string {
  if (typeof k === "string") return k;
  if (k === null) return "null";
  if (typeof k === "boolean") return k ? "true" : "false";
  if (typeof k === "number" || typeof k === "bigint") return String(k);
  if (k instanceof PyFloat) return jsonFloat(k.v);
  return str(k);
}

interface EncodeOptions {
  readonly ensureAscii: boolean;
  readonly sortKeys: boolean;
  /** Canonical form: values that are not JSON (namespaces, views) become their str() text. */
  readonly strNonJson: boolean;
}

function encode(v: PyValue, o: EncodeOptions, out: string[]): void {
  if (v === null) out.push("null");
  else if (typeof v === "boolean") out.push(v ? "true" : "false");
  else if (typeof v === "number" || typeof v === "bigint") out.push(String(v));
  else if (typeof v === "string") out.push(jsonString(v, o.ensureAscii));
  else if (v instanceof PyFloat) out.push(jsonFloat(v.v));
  else if (Array.isArray(v)) encodeArray(v, o, out);
  else if (v instanceof PyTuple) encodeArray(v.items, o, out);
  else if (v instanceof PyDict) encodeObject(v, o, out);
  else if (v instanceof PyNamespace && !o.strNonJson) encodeObject(v.dict, o, out);
  else if (v instanceof PyView && !o.strNonJson) encodeView(v, o, out);
  else if (
    v instanceof PyNamespace ||
    v instanceof PyView ||
    v instanceof PyGenerator ||
    v instanceof PyBoundMethod
  ) {
    out.push(jsonString(str(v), o.ensureAscii));
  }
}

function encodeArray(items: readonly PyValue[], o: EncodeOptions, out: string[]): void {
  out.push("[");
  items.forEach((item, i) => {
    if (i > 0) out.push(", ");
    encode(item, o, out);
  });
  out.push("]");
}

function encodeView(v: PyView, o: EncodeOptions, out: string[]): void {
  const items: PyValue[] = [];
  for (const [k, val] of v.dict.entries.values()) {
    items.push(v.kind === "keys" ? k : v.kind === "values" ? val : new PyTuple([k, val]));
  }
  encodeArray(items, o, out);
}

function encodeObject(d: PyDict, o: EncodeOptions, out: string[]): void {
  const pairs: [string, PyValue][] = [];
  for (const [k, val] of d.entries.values()) pairs.push([jsonKey(k), val]);
  if (o.sortKeys) pairs.sort((a, b) => compareCodePoints(a[0], b[0])); // stable
  out.push("{");
  pairs.forEach(([k, val], i) => {
    if (i > 0) out.push(", ");
    out.push(jsonString(k, o.ensureAscii), ": ");
    encode(val, o, out);
  });
  out.push("}");
}

/**
 * JSON text of a value like Python's `json.dumps(v)` (separators `, ` and `: `, NaN/Infinity,
 * ensure_ascii unless `ensureAscii: false`); namespaces as objects, tuples and views as arrays,
 * generators and bound methods as their str() text.
 */
export function toJson(v: PyValue, options?: { readonly ensureAscii?: boolean }): string {
  const out: string[] = [];
  encode(v, { ensureAscii: options?.ensureAscii ?? true, sortKeys: false, strNonJson: false }, out);
  return out.join("");
}

/** Canonical JSON (docs/reference/language.md §10.16): `json.dumps(v, sort_keys=True, default=str)`. */
export function canonicalJson(v: PyValue): string {
  const out: string[] = [];
  encode(v, { ensureAscii: true, sortKeys: true, strNonJson: true }, out);
  return out.join("");
}

/** Builds a dict from string-keyed JS entries (helper for callers that assemble results). */
export function dictFromRecord(record: Readonly<Record<string, PyValue>>): PyDict {
  const d = new PyDict();
  for (const [k, v] of Object.entries(record)) dictSet(d, k, v);
  return d;
}
