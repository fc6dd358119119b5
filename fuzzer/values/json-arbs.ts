// Generators of plain JSON values (JS data: objects built with Object.fromEntries, so a key such as
// `__proto__` is an own property) biased toward the values that break expressions: empty strings
// and lists, 0, negatives, large numbers, unicode, and the spec's own literals and their
// neighbours, so that comparisons in ensure / skip_if / exit_criterion go both ways.
// Floats are never integral (an integral float would turn into an int on the wire).
import fc from "fast-check";
import { setOwnProperty as put } from "../../stdlib/index";
import type { Literals } from "../target";
import { GRAPHEME_UNIT } from "./grapheme-unit";

/** Marks a field left out of an object. */
export const ABSENT: unique symbol = Symbol("absent");
export type Maybe = unknown | typeof ABSENT;

const EDGE_STRINGS = ["", " ", "a", "0", "-1", "None", "é", "日本語", "😀", "a\nb", "'\"\\"];
const EDGE_INTS = [
  0,
  1,
  -1,
  2,
  3,
  7,
  10,
  100,
  -100,
  2_147_483_648,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
];
const EDGE_FLOATS = [0.5, -0.5, 0.001, 0.1, 0.25, 0.75, 0.95, 0.99, 1.5, 1e-7, 123456.789, -1e9 - 0.5];

// The plain string generators, built once: fast-check builds a string arbitrary's slices when it
// is made, which cost a fuzz of a small spec more than its runs when every field of every contract
// made its own. An arbitrary holds no state a draw changes, so sharing one draws exactly the
// values separate ones would.
const STRING_4 = fc.string({ maxLength: 4 });
const STRING_6 = fc.string({ maxLength: 6 });
const STRING_8 = fc.string({ maxLength: 8 });
// Graphemes on the fuzzer's own unit (grapheme-unit.ts): the same draws as fast-check's
// "grapheme" unit, without the map of every grapheme that unit makes and keeps.
const GRAPHEMES_4 = fc.string({ unit: GRAPHEME_UNIT, maxLength: 4 });

/** A non-integral float (x + 0.5 when x is integral). */
function nonIntegral(x: number): number {
  return Number.isInteger(x) ? x + 0.5 : x;
}

function integralNear(literals: Literals): number[] {
  const out = new Set<number>();
  for (const n of literals.numbers) {
    const f = Math.floor(n);
    const c = Math.ceil(n);
    for (const v of [f - 1, f, c, c + 1]) if (Number.isSafeInteger(v)) out.add(v);
  }
  return [...out].sort((a, b) => a - b);
}

function floatNear(literals: Literals): number[] {
  const out = new Set<number>();
  for (const n of literals.numbers) {
    for (const v of [n, n - 0.01, n + 0.01, n - 0.5, n + 0.5]) {
      if (Number.isFinite(v) && !Number.isInteger(v)) out.add(v);
    }
  }
  return [...out].sort((a, b) => a - b);
}

function withLiterals<T>(
  literals: readonly T[],
  edges: readonly T[],
  rest: fc.Arbitrary<T>,
): fc.Arbitrary<T> {
  const arbs: fc.WeightedArbitrary<T>[] = [{ arbitrary: fc.constantFrom(...edges), weight: 3 }];
  if (literals.length > 0) arbs.unshift({ arbitrary: fc.constantFrom(...literals), weight: 4 });
  arbs.push({ arbitrary: rest, weight: 2 });
  return fc.oneof(...arbs);
}

export function stringArb(
  literals: Literals,
  options: { minLength?: number; maxLength?: number } = {},
): fc.Arbitrary<string> {
  const { minLength = 0, maxLength } = options;
  const fits = (s: string) =>
    [...s].length >= minLength && (maxLength === undefined || [...s].length <= maxLength);
  const lits = literals.strings.filter(fits);
  const affixed =
    literals.strings.length === 0
      ? STRING_6
      : fc.tuple(fc.constantFrom(...literals.strings), STRING_4).map(([lit, tail]) => lit + tail);
  // Strings as long as the spec's small integer literals (for `len(x) == 64` and the like).
  const lengths = literals.numbers.filter((n) => Number.isInteger(n) && n > 8 && n <= 4096);
  const sized =
    lengths.length === 0
      ? STRING_8
      : fc.tuple(fc.constantFrom(...lengths), fc.constantFrom("a", "0", "f")).map(([n, c]) => c.repeat(n));
  const rest = fc.oneof(affixed, STRING_8, GRAPHEMES_4, sized);
  const edges = EDGE_STRINGS.filter(fits);
  const base = withLiterals(lits, edges.length > 0 ? edges : ["x".repeat(minLength)], rest);
  return minLength === 0 && maxLength === undefined ? base : base.filter(fits);
}

export function intArb(literals: Literals, min?: number, max?: number): fc.Arbitrary<number> {
  const inRange = (n: number) => (min === undefined || n >= min) && (max === undefined || n <= max);
  const lits = integralNear(literals).filter(inRange);
  const edges = EDGE_INTS.filter(inRange);
  const lo = min ?? -1000;
  const hi = max ?? Math.max(lo, 1000);
  const rest = fc.integer({
    min: Math.max(lo, Number.MIN_SAFE_INTEGER),
    max: Math.min(hi, Number.MAX_SAFE_INTEGER),
  });
  return withLiterals(lits, edges.length > 0 ? edges : [lo], rest);
}

export function floatArb(literals: Literals, min?: number, max?: number): fc.Arbitrary<number> {
  const inRange = (n: number) => (min === undefined || n >= min) && (max === undefined || n <= max);
  const lits = floatNear(literals).filter(inRange);
  const edges = EDGE_FLOATS.filter(inRange);
  const lo = min ?? -1e6;
  const hi = max ?? 1e6;
  const rest = fc
    .double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true })
    .map(nonIntegral)
    .filter(inRange);
  return edges.length + lits.length === 0 ? rest : withLiterals(lits, edges.length > 0 ? edges : lits, rest);
}

/** Any number: ints and floats. */
export function numberArb(literals: Literals, min?: number, max?: number): fc.Arbitrary<number> {
  return fc.oneof(intArb(literals, min, max), floatArb(literals, min, max));
}

/** Small JSON values of any kind (for untyped fields). */
export function anyJsonArb(literals: Literals): fc.Arbitrary<unknown> {
  return fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      intArb(literals),
      floatArb(literals),
      stringArb(literals),
      fc.array(tie("v"), { maxLength: 3 }),
      fc
        .dictionary(stringArb(literals), tie("v"), { maxKeys: 3 })
        .map((d) => Object.fromEntries(Object.entries(d))),
    ),
  })).v;
}

/** An object from (key, maybe-value) pairs; ABSENT values are left out. */
export function objectOf(entries: readonly (readonly [string, Maybe])[]): Record<string, unknown> {
  return Object.fromEntries(entries.filter(([, v]) => v !== ABSENT));
}

/**
 * An arbitrary of objects whose field `names[i]` is drawn by `values[i]` (ABSENT: left out), as
 * `objectOf` of a tuple of `[name, value]` pairs. One tuple mapped once: every scenario draws a
 * pool of results for every step, and a map layer and a pair per field were most of what drawing a
 * result allocated. Mapping draws nothing, so the values drawn and their shrinks are those of the
 * pairs' form.
 */
export function objectArb(
  names: readonly string[],
  values: readonly fc.Arbitrary<Maybe>[],
): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(...values).map((vs) => objectFrom(names, vs));
}

/** `objectOf(names.map((n, i) => [n, values[i]]))`, without the pairs. */
function objectFrom(names: readonly string[], values: readonly Maybe[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) {
    const v = values[i];
    if (v !== ABSENT) put(out, names[i]!, v);
  }
  return out;
}

/**
 * `{ ...a, ...b }`: a's fields, then b's (b's value wins, in a's place). Drawn for every result of a
 * step with both a contract and an output_schema; spreading a second object copied its fields
 * ten times slower than setting them.
 */
export function merged(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in a) if (Object.hasOwn(a, k)) put(out, k, a[k]);
  for (const k in b) if (Object.hasOwn(b, k)) put(out, k, b[k]);
  return out;
}

/** A field that may be absent, null or a value. */
export function optional(arb: fc.Arbitrary<unknown>): fc.Arbitrary<Maybe> {
  return fc.oneof(
    { arbitrary: fc.constant(ABSENT), weight: 1 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: arb, weight: 3 },
  );
}
