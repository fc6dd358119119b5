// str.lower/upper/strip/lstrip/rstrip/split/join/replace and the is* predicates (language.md
// docs/reference/language.md §10.10), by code point with Python's whitespace definition. The size of every built string is
// charged before it is built (docs/reference/language.md §10.15).
import { typeError, valueError } from "../values/errors";
import { isIterable, toArray } from "../values/iteration";
import { cpIndexOf, cpLength, toCodePoints } from "../values/strings";
import { type PyValue, typeName } from "../values/value";
import { asIndex, clampIndex } from "./common";
import type { EvalEnv } from "./env";
import { isAlnumChar, isAlphaChar, isDigitChar, isSpaceCp } from "./unicode";

function isSpaceChar(ch: string): boolean {
  return isSpaceCp(ch.codePointAt(0) ?? 0);
}

/**
 * Full Unicode case mapping. ECMAScript's toLowerCase/toUpperCase apply the same unconditional
 * SpecialCasing mappings and the Final_Sigma rule as CPython ('ß'.upper() == 'SS',
 * 'İ'.lower() == 'i̇', 'ΑΣ'.lower() == 'ας'). Checked for every code point assigned in Unicode 14:
 * identical except U+019B, U+0264, U+A7D3, U+A7D5, which gained mappings in later Unicode versions.
 */
export function strCase(which: "lower" | "upper", s: string, env: EvalEnv): string {
  env.budget.charge(cpLength(s));
  return which === "lower" ? s.toLowerCase() : s.toUpperCase();
}

export function strStrip(
  which: "strip" | "lstrip" | "rstrip",
  s: string,
  chars: PyValue | undefined,
  env: EvalEnv,
): string {
  let strip: (ch: string) => boolean;
  if (chars === undefined || chars === null) strip = isSpaceChar;
  else if (typeof chars === "string") {
    const set = new Set(toCodePoints(chars));
    strip = (ch) => set.has(ch);
  } else throw typeError(`${which} arg must be None or str`);
  const cps = toCodePoints(s);
  let start = 0;
  let end = cps.length;
  if (which !== "rstrip") while (start < end && strip(cps[start] as string)) start++;
  if (which !== "lstrip") while (end > start && strip(cps[end - 1] as string)) end--;
  env.budget.charge(end - start);
  return cps.slice(start, end).join("");
}

/** CPython's split_whitespace: runs of whitespace separate, empty parts are dropped. */
function splitWhitespace(s: string, maxsplit: number): string[] {
  const cps = toCodePoints(s);
  const n = cps.length;
  const parts: string[] = [];
  let i = 0;
  let remaining = maxsplit;
  while (remaining-- > 0) {
    while (i < n && isSpaceChar(cps[i] as string)) i++;
    if (i === n) break;
    const j = i;
    i++;
    while (i < n && !isSpaceChar(cps[i] as string)) i++;
    parts.push(cps.slice(j, i).join(""));
  }
  if (i < n) {
    while (i < n && isSpaceChar(cps[i] as string)) i++;
    if (i !== n) parts.push(cps.slice(i).join(""));
  }
  return parts;
}

function splitOn(s: string, sep: string, maxsplit: number): string[] {
  const parts: string[] = [];
  let from = 0;
  let remaining = maxsplit;
  while (remaining-- > 0) {
    const at = cpIndexOf(s, sep, from);
    if (at < 0) break;
    parts.push(s.slice(from, at));
    from = at + sep.length;
  }
  parts.push(s.slice(from));
  return parts;
}

export function strSplit(
  s: string,
  sep: PyValue | undefined,
  maxsplit: PyValue | undefined,
  env: EvalEnv,
): string[] {
  // CPython's argument parser converts maxsplit before split() looks at sep.
  const max = maxsplit === undefined ? -1 : clampIndex(asIndex(maxsplit));
  if (sep !== undefined && sep !== null && typeof sep !== "string") {
    throw typeError(`must be str or None, not ${typeName(sep)}`);
  }
  const limit = max < 0 ? Number.MAX_SAFE_INTEGER : max;
  if (sep === "") throw valueError("empty separator");
  env.budget.charge(cpLength(s));
  return typeof sep === "string" ? splitOn(s, sep, limit) : splitWhitespace(s, limit);
}

/** sep.join(iterable): the iterable is consumed first, then every element must be a str. */
export function strJoin(sep: string, iterable: PyValue, env: EvalEnv): string {
  if (!isIterable(iterable)) throw typeError("can only join an iterable");
  const items = toArray(iterable, env.budget);
  let size = items.length > 0 ? cpLength(sep) * (items.length - 1) : 0;
  items.forEach((item, i) => {
    if (typeof item !== "string") {
      throw typeError(`sequence item ${i}: expected str instance, ${typeName(item)} found`);
    }
    size += cpLength(item);
  });
  env.budget.charge(size);
  return (items as string[]).join(sep);
}

export function strReplace(
  s: string,
  old: PyValue,
  replacement: PyValue,
  count: PyValue | undefined,
  env: EvalEnv,
): string {
  if (typeof old !== "string") throw typeError(`replace() argument 1 must be str, not ${typeName(old)}`);
  if (typeof replacement !== "string") {
    throw typeError(`replace() argument 2 must be str, not ${typeName(replacement)}`);
  }
  const max = count === undefined ? -1 : clampIndex(asIndex(count));
  const limit = max < 0 ? Number.MAX_SAFE_INTEGER : max;
  if (old === "") {
    // An empty `old` matches before every code point and at the end: 'ab' → '-a-b-'.
    const cps = toCodePoints(s);
    const k = Math.min(limit, cps.length + 1);
    env.budget.charge(cps.length + k * cpLength(replacement));
    let out = "";
    for (let i = 0; i < cps.length; i++) out += (i < k ? replacement : "") + cps[i];
    return k > cps.length ? out + replacement : out;
  }
  const positions: number[] = [];
  for (
    let at = cpIndexOf(s, old);
    at !== -1 && positions.length < limit;
    at = cpIndexOf(s, old, at + old.length)
  ) {
    positions.push(at);
  }
  env.budget.charge(cpLength(s) + positions.length * (cpLength(replacement) - cpLength(old)));
  let out = "";
  let from = 0;
  for (const at of positions) {
    out += s.slice(from, at) + replacement;
    from = at + old.length;
  }
  return out + s.slice(from);
}

const PREDICATES = {
  isdigit: isDigitChar,
  isalpha: isAlphaChar,
  isalnum: isAlnumChar,
  isspace: isSpaceChar,
} as const;

export type StrPredicate = keyof typeof PREDICATES;

/** Python's str.isdigit/isalpha/isalnum/isspace: every code point qualifies; False for ''. */
export function strIs(which: StrPredicate, s: string, env: EvalEnv): boolean {
  const cps = toCodePoints(s);
  env.budget.charge(cps.length);
  return cps.length > 0 && cps.every(PREDICATES[which]);
}
