// Text conversion: repr and str (docs/reference/language.md §10.11), charged per output code point (docs/reference/language.md §10.15).
import type { Budget } from "./budget";
import { cpLength } from "./strings";
import {
  PyBoundMethod,
  PyDict,
  PyFloat,
  PyGenerator,
  PyNamespace,
  PyTuple,
  type PyValue,
  PyView,
  typeName,
} from "./value";

/** Python's float repr: shortest round-trip digits, positional for exponents in [-4, 16). */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Number.POSITIVE_INFINITY) return "inf";
  if (x === Number.NEGATIVE_INFINITY) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // toExponential() without an argument yields the shortest round-trip digits.
  const text = x.toExponential();
  const sign = x < 0 ? "-" : "";
  const ePos = text.indexOf("e");
  const digits = text.slice(sign.length, ePos).replace(".", "");
  const exp = Number(text.slice(ePos + 1));
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
    const intPart = digits.length > exp + 1 ? digits.slice(0, exp + 1) : digits.padEnd(exp + 1, "0");
    const frac = digits.length > exp + 1 ? digits.slice(exp + 1) : "0";
    return `${sign}${intPart}.${frac}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const expText = String(Math.abs(exp)).padStart(2, "0");
  return `${sign}${mantissa}e${exp < 0 ? "-" : "+"}${expText}`;
}

/** Printable ASCII other than the quote and the backslash: reprs as itself inside '…'. */
const PLAIN = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;
/** Python's non-printable code points (space is handled before this test). */
const NON_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, "0");
}

/** Python's repr of a string. */
export function strRepr(s: string): string {
  if (PLAIN.test(s)) return `'${s}'`;
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f || !NON_PRINTABLE.test(ch)) out += ch;
    else if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + quote;
}

/** Appends the repr of `v` to `out` piece by piece, charging each piece before going on. */
class ReprWriter {
  readonly out: string[] = [];
  constructor(private readonly budget: Budget | undefined) {}

  put(piece: string): void {
    this.budget?.charge(cpLength(piece));
    this.out.push(piece);
  }

  sequence(items: readonly PyValue[], open: string, close: string): void {
    this.put(open);
    items.forEach((item, i) => {
      if (i > 0) this.put(", ");
      this.value(item);
    });
    this.put(close);
  }

  value(v: PyValue): void {
    if (v === null) this.put("None");
    else if (typeof v === "boolean") this.put(v ? "True" : "False");
    else if (typeof v === "number" || typeof v === "bigint") this.put(String(v));
    else if (typeof v === "string") this.put(strRepr(v));
    else if (Array.isArray(v)) this.sequence(v, "[", "]");
    else if (v instanceof PyFloat) this.put(floatRepr(v.v));
    else if (v instanceof PyTuple) this.tuple(v);
    else if (v instanceof PyDict) this.dict(v);
    else if (v instanceof PyNamespace) this.namespace(v);
    else if (v instanceof PyView) this.view(v);
    else if (v instanceof PyGenerator) this.put("<generator object <genexpr>>");
    else if (v instanceof PyBoundMethod) {
      this.put(`<built-in method ${v.name} of ${typeName(v.receiver)} object>`);
    }
  }

  tuple(t: PyTuple): void {
    if (t.items.length !== 1) this.sequence(t.items, "(", ")");
    else {
      this.put("(");
      this.value(t.items[0] ?? null);
      this.put(",)");
    }
  }

  dict(d: PyDict): void {
    this.put("{");
    let first = true;
    for (const [k, val] of d.entries.values()) {
      if (!first) this.put(", ");
      first = false;
      this.value(k);
      this.put(": ");
      this.value(val);
    }
    this.put("}");
  }

  namespace(ns: PyNamespace): void {
    this.put("namespace(");
    let first = true;
    for (const [k, val] of ns.dict.entries.values()) {
      if (!first) this.put(", ");
      first = false;
      this.put(typeof k === "string" ? k : str(k));
      this.put("=");
      this.value(val);
    }
    this.put(")");
  }

  view(v: PyView): void {
    this.put(`dict_${v.kind}([`);
    let first = true;
    for (const [k, val] of v.dict.entries.values()) {
      if (!first) this.put(", ");
      first = false;
      if (v.kind === "keys") this.value(k);
      else if (v.kind === "values") this.value(val);
      else {
        this.put("(");
        this.value(k);
        this.put(", ");
        this.value(val);
        this.put(")");
      }
    }
    this.put("])");
  }
}

export function repr(v: PyValue, budget?: Budget): string {
  if (typeof v === "string") {
    const text = strRepr(v);
    budget?.charge(cpLength(text));
    return text;
  }
  const w = new ReprWriter(budget);
  w.value(v);
  return w.out.join("");
}

/** `str(x)`: the string itself, or its repr for every other value. */
export function str(v: PyValue, budget?: Budget): string {
  return typeof v === "string" ? v : repr(v, budget);
}
