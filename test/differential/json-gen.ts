// Random JSON bindings for differential cases, produced as JSON TEXT so that integers beyond
// 2^53, -0.0 and exact float spellings survive unchanged into both evaluators.
import type { Rand } from "./rand";

/** Object keys: identifiers (some named like dict and str methods) and a few non-identifiers. */
export const IDENT_KEYS = [
  "a",
  "b",
  "v",
  "name",
  "items",
  "get",
  "keys",
  "values",
  "count",
  "index",
  "n",
] as const;
const OTHER_KEYS = ["", "a b", "é", "😀", "1"];

/** Characters of generated strings: ASCII, quotes, escapes, Latin-1, astral, case-mapping oddities. */
const CHARS = [
  "a",
  "b",
  "c",
  "A",
  "B",
  " ",
  "1",
  "2",
  ",",
  "-",
  "_",
  "'",
  '"',
  "\\",
  "\n",
  "\t",
  "é",
  "ß",
  "ﬁ",
  "İ",
  "Σ",
  "ς",
  "\u00a0",
  "\u2003",
  "٣",
  "²",
  "½",
  "中",
  "😀",
  "𝔘",
  "\u200b",
];

const SMALL_INTS = ["0", "1", "2", "3", "-1", "-2", "5", "7", "10", "100", "1000", "65536"];
const BIG_INTS = [
  "9007199254740991",
  "9007199254740992",
  "9007199254740993",
  "-9007199254740993",
  "18446744073709551616",
  "123456789012345678901234567890",
  "-98765432109876543210",
];
const FLOATS = [
  "0.0",
  "-0.0",
  "0.1",
  "0.2",
  "0.5",
  "1.5",
  "2.5",
  "-3.75",
  "1e16",
  "1e-07",
  "1e308",
  "1.7976931348623157e308",
  "123456789.123",
  "1e22",
  "3.0",
  "-1.0",
  "5e-324",
  "2.675",
  "0.30000000000000004",
  "9007199254740993.0",
];

export function genString(r: Rand, maxLength = 5): string {
  const n = r.int(0, maxLength);
  let s = "";
  for (let i = 0; i < n; i++) s += r.pick(CHARS);
  return s;
}

export function genKey(r: Rand): string {
  return r.chance(85) ? r.pick(IDENT_KEYS) : r.pick(OTHER_KEYS);
}

function floatText(r: Rand): string {
  if (r.chance(70)) return r.pick(FLOATS);
  // A random finite double, spelled so that JSON keeps it a float.
  const x = (r.int(-1_000_000, 1_000_000) / r.pick([1, 3, 7, 1024, 1e6])) * r.pick([1, 1e-10, 1e10, 1e20]);
  const t = Object.is(x, -0) ? "-0.0" : String(x);
  return /[.eE]/.test(t) ? t : `${t}.0`;
}

function intText(r: Rand): string {
  return r.chance(80) ? r.pick(SMALL_INTS) : r.pick(BIG_INTS);
}

/** Any JSON value as text, nested at most `depth` levels. */
function genJson(r: Rand, depth: number): string {
  const kinds: (readonly [number, string])[] = [
    [2, "null"],
    [3, "bool"],
    [8, "int"],
    [5, "float"],
    [7, "str"],
  ];
  if (depth > 0) kinds.push([5, "list"], [4, "object"]);
  switch (r.weighted(kinds)) {
    case "null":
      return "null";
    case "bool":
      return r.chance(50) ? "true" : "false";
    case "int":
      return intText(r);
    case "float":
      return floatText(r);
    case "str":
      return JSON.stringify(genString(r));
    case "list":
      return genList(r, depth - 1);
    default:
      return genObject(r, depth - 1);
  }
}

function genList(r: Rand, depth: number, element?: (r: Rand) => string): string {
  const n = r.int(0, 4);
  const items: string[] = [];
  for (let i = 0; i < n; i++) items.push(element ? element(r) : genJson(r, depth));
  return `[${items.join(", ")}]`;
}

/** An object; occasionally with a duplicate key (the last one wins in both decoders). */
function genObject(r: Rand, depth: number): string {
  const n = r.int(0, 4);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`${JSON.stringify(genKey(r))}: ${genJson(r, depth)}`);
  return `{${parts.join(", ")}}`;
}

/** A list of values of one rough kind (numbers, strings…), so that ordering and sums succeed. */
function genUniformList(r: Rand): string {
  const kind = r.pick(["int", "num", "str", "list", "mixed"]);
  return genList(r, 1, (rr) => {
    if (kind === "int") return rr.pick(SMALL_INTS);
    if (kind === "num") return rr.chance(50) ? intText(rr) : floatText(rr);
    if (kind === "str") return JSON.stringify(genString(rr, 3));
    if (kind === "list") return genList(rr, 0, (x) => x.pick(SMALL_INTS));
    return genJson(rr, 1);
  });
}

/**
 * The bindings of one case: `result` (usually an object: bound as a namespace), `d` (an object:
 * a plain dict), `l` (a list), `s` (a string), `n` (a number) and `x` (anything).
 */
export function genBindings(r: Rand): string {
  const result = r.chance(90) ? genObject(r, 2) : genJson(r, 2);
  const d = genObject(r, 2);
  const l = genUniformList(r);
  const s = JSON.stringify(genString(r, 6));
  const n = r.chance(60) ? intText(r) : floatText(r);
  const x = genJson(r, 2);
  return `{"result": ${result}, "d": ${d}, "l": ${l}, "s": ${s}, "n": ${n}, "x": ${x}}`;
}

/** Names bound by `genBindings`. */
export const BOUND_NAMES = ["result", "d", "l", "s", "n", "x"] as const;
