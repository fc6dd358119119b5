// A parsed Python `re` pattern (python-parse.ts) → RE2 source with the same "is there a match"
// answer, for a linear-time engine. Python's str patterns are Unicode-aware: \d is any decimal
// digit, \w any letter, number or `_`, \s Python's white space (str.isspace) — spelled out here
// because RE2's classes are ASCII. What RE2 cannot express — a backreference, a lookaround, an
// atomic group, a possessive quantifier, a conditional, a named escape \N{…}, a repeat count above
// 1000 — is reported with the reason. Known approximations (docs/reference/divergences.md):
// \b and \B are ASCII word boundaries, and a `$` outside MULTILINE may consume the final newline.
import type { PyFlags, PyNode, PyPattern, PySeq, PySetItem } from "./python-ast";
import type { Translation } from "./translate";

type Range = readonly [number, number];

const MAX_CP = 0x10ffff;
/** RE2's limit on a counted repetition. */
const RE2_MAX_REPEAT = 1000;
/** Python's str.isspace set (Py_UNICODE_ISSPACE), as sorted inclusive ranges. */
const PY_SPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x1c, 0x20],
  [0x85, 0x85],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];
const ASCII_SPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
];
const ASCII_WORD: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const ASCII_DIGIT: readonly Range[] = [[0x30, 0x39]];

const hex = (cp: number): string => `\\x{${cp.toString(16)}}`;
const literal = (cp: number): string =>
  /^[A-Za-z0-9_]$/u.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : hex(cp);
const rangeText = ([lo, hi]: Range): string => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`);
const rangesText = (ranges: readonly Range[]): string => ranges.map(rangeText).join("");

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

let unicodeWord: Range[] | null = null;
/** The code points of Python's Unicode \w as ranges (built once, only for a \W inside a set). */
function unicodeWordRanges(): readonly Range[] {
  if (unicodeWord !== null) return unicodeWord;
  const word = /[\p{L}\p{N}_]/u;
  const out: Array<[number, number]> = [];
  for (let c = 0; c <= MAX_CP; c++) {
    if (c === 0xd800) c = 0xe000; // surrogates are never letters
    if (!word.test(String.fromCodePoint(c))) continue;
    const last = out[out.length - 1];
    if (last !== undefined && last[1] === c - 1) last[1] = c;
    else out.push([c, c]);
  }
  unicodeWord = out;
  return out;
}

class Unsupported extends Error {}

interface Context {
  readonly i: boolean;
  readonly m: boolean;
  readonly s: boolean;
  readonly a: boolean;
}

/** The RE2 source of a parsed pattern, or why RE2 cannot run it. */
export function pythonToRe2(pattern: PyPattern): Translation {
  const { i, m, s, a } = pattern.flags;
  try {
    const body = seqText(pattern.seq, { i, m, s, a });
    return { ok: true, source: `${i ? "(?i)" : ""}${body}`, lookbehind: false };
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, reason: error.message };
    throw error;
  }
}

function seqText(seq: PySeq, ctx: Context): string {
  return seq.map((node) => nodeText(node, ctx)).join("");
}

function atom(seq: PySeq, ctx: Context): string {
  const text = seqText(seq, ctx);
  const only = seq.length === 1 ? seq[0] : undefined;
  return only !== undefined && (only.t === "lit" || only.t === "set" || only.t === "any")
    ? text
    : `(?:${text})`;
}

function nodeText(node: PyNode, ctx: Context): string {
  switch (node.t) {
    case "lit":
      return literal(node.cp);
    case "set":
      return setText(node.negate, node.items, ctx);
    case "any":
      return ctx.s ? "(?s:.)" : "[^\\n]";
    case "at":
      return atText(node.at, ctx);
    case "repeat":
      return repeatText(node, ctx);
    case "group":
      return groupText(node.add, node.del, node.body, ctx);
    case "branch":
      return `(?:${node.alts.map((alt) => seqText(alt, ctx)).join("|")})`;
    case "atomic":
      throw new Unsupported("an atomic group (?>…)");
    case "assert":
      throw new Unsupported(node.behind ? "a lookbehind assertion" : "a lookahead assertion");
    case "groupref":
      throw new Unsupported("a backreference");
    case "cond":
      throw new Unsupported("a conditional group (?(…)…)");
    case "named":
      throw new Unsupported("a named character escape \\N{…}");
  }
}

function atText(at: "begin" | "end" | "A" | "Z" | "b" | "B", ctx: Context): string {
  switch (at) {
    case "begin":
      return ctx.m ? "(?m:^)" : "\\A";
    case "end":
      return ctx.m ? "(?m:$)" : "(?:\\n?\\z)";
    case "A":
      return "\\A";
    case "Z":
      return "\\z";
    case "b":
      return "\\b";
    case "B":
      return "\\B";
  }
}

function repeatText(node: Extract<PyNode, { t: "repeat" }>, ctx: Context): string {
  if (node.mode === "possessive") throw new Unsupported("a possessive quantifier");
  if (node.min > RE2_MAX_REPEAT || (node.max !== null && node.max > RE2_MAX_REPEAT))
    throw new Unsupported(`a repeat count above ${RE2_MAX_REPEAT}`);
  const quantifier =
    node.min === 0 && node.max === null
      ? "*"
      : node.min === 1 && node.max === null
        ? "+"
        : node.min === 0 && node.max === 1
          ? "?"
          : node.max === null
            ? `{${node.min},}`
            : node.min === node.max
              ? `{${node.min}}`
              : `{${node.min},${node.max}}`;
  return `${atom(node.item, ctx)}${quantifier}${node.mode === "lazy" ? "?" : ""}`;
}

function groupText(add: Partial<PyFlags>, del: Partial<PyFlags>, body: PySeq, ctx: Context): string {
  const inner: Context = {
    i: add.i === true ? true : del.i === true ? false : ctx.i,
    m: add.m === true ? true : del.m === true ? false : ctx.m,
    s: add.s === true ? true : del.s === true ? false : ctx.s,
    a: add.a === true ? true : add.a === false ? false : ctx.a,
  };
  const text = seqText(body, inner);
  if (inner.i === ctx.i) return `(?:${text})`;
  return inner.i ? `(?i:${text})` : `(?-i:${text})`;
}

/** A set as an RE2 class; a \W or \S inside a larger set is spelled out as ranges. */
function setText(negate: boolean, items: readonly PySetItem[], ctx: Context): string {
  const only = items.length === 1 ? items[0] : undefined;
  if (only !== undefined && only.t === "cat") {
    const positive = categoryPositive(only.cat, ctx);
    if (positive !== null) {
      const flip = negate !== (only.cat === only.cat.toUpperCase());
      return `[${flip ? "^" : ""}${positive}]`;
    }
  }
  const parts = items.map((item) => {
    if (item.t === "lit") return literal(item.cp);
    if (item.t === "range") return `${literal(item.lo)}-${literal(item.hi)}`;
    if (item.t === "named") throw new Unsupported("a named character escape \\N{…}");
    return categoryItem(item.cat, ctx);
  });
  return `[${negate ? "^" : ""}${parts.join("")}]`;
}

/** The class items of a lower-case category (\d \s \w), or null for anything else. */
function categoryPositive(cat: string, ctx: Context): string | null {
  const lower = cat.toLowerCase();
  if (lower === "d") return ctx.a ? rangesText(ASCII_DIGIT) : "\\p{Nd}";
  if (lower === "s") return rangesText(ctx.a ? ASCII_SPACE : PY_SPACE);
  if (lower === "w") return ctx.a ? rangesText(ASCII_WORD) : "\\p{L}\\p{N}_";
  return null;
}

/** A category as items of a larger class. */
function categoryItem(cat: string, ctx: Context): string {
  switch (cat) {
    case "d":
    case "s":
    case "w":
      return categoryPositive(cat, ctx) ?? "";
    case "D":
      return ctx.a ? rangesText(complement(ASCII_DIGIT)) : "\\P{Nd}";
    case "S":
      return rangesText(complement(ctx.a ? ASCII_SPACE : PY_SPACE));
    default:
      return rangesText(complement(ctx.a ? ASCII_WORD : unicodeWordRanges()));
  }
}
