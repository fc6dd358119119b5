// fast-check arbitraries that damage valid specs line by line: delete, duplicate or swap lines,
// insert YAML/expression tokens, change indentation, replace scalars with odd values. Seeds are
// real specs (the examples), so most mutants are "almost right" documents that reach every phase.

import fc from "fast-check";

/** Tokens that are meaningful to the YAML layer, the schema or the expression language. */
const SPEC_TOKENS: readonly string[] = [
  ":",
  ": ",
  "- ",
  "-",
  "{",
  "}",
  "[",
  "]",
  ",",
  "&a ",
  "*a",
  "<<: *a",
  "!!str ",
  "!!binary ",
  "!foo ",
  "'",
  '"',
  '"\\d"',
  "#",
  "|",
  ">-",
  "\\",
  "\t",
  "\r",
  "\r\n",
  "\n",
  "---\n",
  "...\n",
  "%YAML 1.1\n",
  "?",
  "~",
  "__proto__",
  "constructor",
  "prototype",
  "$",
  "$.",
  "$.steps.",
  "$.input.",
  ".output",
  "result.",
  "item.",
  "dry_streak",
  "(",
  ")",
  "**",
  "lambda",
  " and ",
  " or ",
  " not ",
  "==",
  "<",
  "é",
  "😀",
  "\u2028",
  "\u0000",
  "\ufeff",
];

/** Values that replace a scalar: every YAML 1.1 type, odd expressions, odd references. */
const ODD_SCALARS: readonly string[] = [
  "",
  "~",
  "null",
  "yes",
  "no",
  "on",
  "0.2",
  '"0.3"',
  "1e3",
  "0x1F",
  "010",
  "1:30",
  ".inf",
  "-1",
  "0",
  "2.0",
  "2024-01-01",
  "2001-12-14t21:59:43.10-05:00",
  "'x'",
  "''",
  "[]",
  "{}",
  "[a, b]",
  "{a: 1}",
  "=",
  "*undefined_alias",
  "&anchor value",
  "!!int x",
  "!!set {a}",
  '"\\u00e9\\t"',
  "result.__class__",
  "result.nope > 1",
  "len(1)",
  "$.",
  "$.steps.x.result",
  "$.input",
  "$.steps.__proto__.output",
  "__proto__",
  "constructor",
  "toString",
  ">-\n  folded\n  text",
  "|\n  literal",
  "x".repeat(300),
];

function lines(text: string): string[] {
  return text.split("\n");
}

type Mutation = (text: string) => string;

/** Picks an index in [0, n) from a fraction in [0, 1). */
function pick(n: number, f: number): number {
  return Math.min(n - 1, Math.floor(f * n));
}

const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

const deleteLine = fraction.map<Mutation>((f) => (text) => {
  const ls = lines(text);
  ls.splice(pick(ls.length, f), 1);
  return ls.join("\n");
});

const duplicateLine = fraction.map<Mutation>((f) => (text) => {
  const ls = lines(text);
  const i = pick(ls.length, f);
  ls.splice(i, 0, ls[i] ?? "");
  return ls.join("\n");
});

const swapLines = fc.tuple(fraction, fraction).map<Mutation>(([f, g]) => (text) => {
  const ls = lines(text);
  const i = pick(ls.length, f);
  const j = pick(ls.length, g);
  const a = ls[i] ?? "";
  ls[i] = ls[j] ?? "";
  ls[j] = a;
  return ls.join("\n");
});

const insertToken = fc
  .tuple(fraction, fc.constantFrom(...SPEC_TOKENS))
  .map<Mutation>(([f, token]) => (text) => {
    const at = pick(text.length + 1, f);
    return text.slice(0, at) + token + text.slice(at);
  });

const reindent = fc.tuple(fraction, fc.integer({ min: -4, max: 4 })).map<Mutation>(([f, delta]) => (text) => {
  const ls = lines(text);
  const i = pick(ls.length, f);
  const line = ls[i] ?? "";
  ls[i] = delta >= 0 ? " ".repeat(delta) + line : line.replace(new RegExp(`^ {0,${-delta}}`), "");
  return ls.join("\n");
});

/** Replaces the value after the first `: ` of a line (or the text after `- `) with an odd scalar. */
const replaceScalar = fc
  .tuple(fraction, fc.oneof(fc.constantFrom(...ODD_SCALARS), fc.string({ maxLength: 20 })))
  .map<Mutation>(([f, value]) => (text) => {
    const ls = lines(text);
    const i = pick(ls.length, f);
    const line = ls[i] ?? "";
    const colon = line.indexOf(": ");
    const dash = line.search(/- /);
    if (colon >= 0) ls[i] = `${line.slice(0, colon + 2)}${value}`;
    else if (dash >= 0) ls[i] = `${line.slice(0, dash + 2)}${value}`;
    else ls[i] = `${line}${value}`;
    return ls.join("\n");
  });

/** Replaces one identifier-like word (a name, id or field) with another word of the text. */
const swapWord = fc.tuple(fraction, fraction).map<Mutation>(([f, g]) => (text) => {
  const words = [...text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)];
  if (words.length === 0) return text;
  const target = words[pick(words.length, f)];
  const source = words[pick(words.length, g)];
  if (target?.index === undefined || source === undefined) return text;
  return text.slice(0, target.index) + source[0] + text.slice(target.index + target[0].length);
});

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  deleteLine,
  duplicateLine,
  swapLines,
  insertToken,
  reindent,
  replaceScalar,
  swapWord,
);

/** A seed chosen from `seeds`, damaged by 1–`max` mutations. */
export function mutatedSpecArb(seeds: readonly string[], max = 5): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...seeds), fc.array(mutationArb, { minLength: 1, maxLength: max }))
    .map(([seed, mutations]) => mutations.reduce((text, m) => m(text), seed));
}

/** Arbitrary text: raw code units, and soups of spec tokens and words. */
export const arbitraryTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...SPEC_TOKENS),
        fc.constantFrom(...ODD_SCALARS),
        fc.constantFrom("version", "flows", "steps", "id", "intent", "contracts", "functions", "  ", "\n  "),
      ),
      {
        maxLength: 80,
      },
    )
    .map((parts) => parts.join("")),
  fc
    .array(fc.constantFrom(...SPEC_TOKENS), { maxLength: 60 })
    .map((parts) => `version: "0.2"\nflows:\n  f:\n    input: {}\n    steps:\n      - ${parts.join("")}`),
);
