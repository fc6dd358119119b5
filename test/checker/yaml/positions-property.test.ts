// Property: for random strings rendered by the yaml package in every scalar style (and folded at
// narrow widths), the position map is exact and each loaded character maps to a source character
// that produces it: the same character, the backslash of an escape, the first quote of `''`, or
// the line break of a folded/kept line break.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { ScalarNode } from "../../../checker/yaml/nodes";
import { exactMap, load, scalarAt } from "./support";

type StringType = "PLAIN" | "QUOTE_SINGLE" | "QUOTE_DOUBLE" | "BLOCK_LITERAL" | "BLOCK_FOLDED";
const TYPES: readonly StringType[] = [
  "PLAIN",
  "QUOTE_SINGLE",
  "QUOTE_DOUBLE",
  "BLOCK_LITERAL",
  "BLOCK_FOLDED",
];

/** Why source character `s` may stand for loaded character `v` in a scalar of `style`. */
function produces(style: ScalarNode["style"], s: string, v: string): boolean {
  if (s === v) return true;
  if (style === "double" && s === "\\") return true;
  return (v === " " || v === "\n") && (s === "\n" || s === "\r");
}

function check(text: string, value: string): void {
  const loaded = load(text);
  const scalar = scalarAt(loaded.root, "k");
  expect(scalar.value).toBe(value);
  expect(exactMap(scalar)).toBe(true);
  for (let i = 0; i < value.length; i++) {
    const r = scalar.mapRange(i, i + 1);
    const cp = value.codePointAt(i) ?? 0;
    if (cp > 0xffff) {
      // Both halves of a pair map to the same place.
      expect(scalar.mapRange(i + 1, i + 2)).toEqual(r);
    }
    const low = i > 0 && (value.codePointAt(i - 1) ?? 0) > 0xffff;
    if (low) continue;
    const s = String.fromCodePoint(text.codePointAt(r.start) ?? 0);
    if (!produces(scalar.style, s, String.fromCodePoint(cp))) {
      throw new Error(
        `char ${i} ${JSON.stringify(String.fromCodePoint(cp))} ← ${JSON.stringify(s)} at ${r.start} in ${JSON.stringify(text)}`,
      );
    }
    expect(r.end).toBeGreaterThan(r.start);
    expect(r.end).toBeLessThanOrEqual(text.length);
    expect(r.start).toBeGreaterThanOrEqual(scalar.range.start);
    // Only a line break kept at the end of a block scalar lies past the written range.
    expect(r.start <= scalar.range.end || /[\n\r]/.test(s)).toBe(true);
  }
}

const chars = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom("a", "b", "x", " ", " ", "\n", "\n", "'", '"', "\\", ":", "#", "-", "\t"),
  },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom("é", "😀", "\u0085", "\u2028", "\x07", "\r", "\r\n") },
);
const value = fc.array(chars, { maxLength: 40 }).map((a) => a.join(""));

describe("position map of stringified scalars", () => {
  it("maps every loaded character to a producing source character, in every style", () => {
    fc.assert(
      fc.property(
        value,
        fc.constantFrom(...TYPES),
        fc.integer({ min: 20, max: 80 }),
        fc.boolean(),
        (v, type, lineWidth, crlf) => {
          let text = stringify({ k: v }, { defaultStringType: type, lineWidth, minContentWidth: 0 });
          if (crlf) text = text.replace(/\n/g, "\r\n");
          // stringify may fold a double-quoted line between the halves of a surrogate pair
          // (`\ud834\\` newline `\udd65`): such text has lone surrogates, cannot be written as
          // UTF-8, so no spec file holds it. (In `u` mode the class matches lone surrogates only.)
          if (/[\uD800-\uDFFF]/u.test(text)) return;
          const reloaded = load(text);
          if (!reloaded.ok) return; // CRLF inside a quoted scalar can change its meaning; skip
          const scalar = scalarAt(reloaded.root, "k");
          if (typeof scalar.value !== "string") return;
          check(text, scalar.value);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

// Source-side generators: scalars written directly in each style, with folding, escapes, empty
// lines, more-indented lines, chomping and indentation indicators that stringify never produces.
const wordChar = fc.constantFrom("a", "b", "z", "0", "9", "é", "😀", "-", ".", "_", "(", ")");
const word = fc.array(wordChar, { minLength: 1, maxLength: 6 }).map((a) => a.join(""));
const plainLine = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));
const blank = fc.constantFrom("", " ", "  ", "\t");
const line = fc.oneof({ weight: 4, arbitrary: plainLine }, { weight: 1, arbitrary: fc.constant("") });

const plainScalar = fc
  .tuple(plainLine, fc.array(fc.tuple(line, fc.integer({ min: 1, max: 4 }), blank), { maxLength: 5 }))
  .map(([first, rest]) => {
    // The first line must not start like a number or another node; prefix a letter.
    let s = `k: x${first}`;
    for (const [l, indent, trail] of rest)
      s += l === "" ? `\n${trail === "\t" ? "" : trail}` : `\n${" ".repeat(indent)}${l}${trail}`;
    return `${s}\n`;
  });

const singleChar = fc.constantFrom("a", " ", "''", '"', "\\", "#", ":", "é", "😀", "\t");
const singleScalar = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: singleChar },
      { weight: 1, arbitrary: fc.constantFrom("\n  ", "\n\n  ", "  \n ", "\n \n\t ") },
    ),
    { maxLength: 30 },
  )
  .map((parts) => `k: '${parts.join("")}'\n`);

const doubleChar = fc.constantFrom(
  "a",
  " ",
  "'",
  "#",
  "é",
  "😀",
  "\t",
  "\\n",
  "\\t",
  "\\x41",
  "\\u00e9",
  "\\U0001F600",
  '\\"',
  "\\\\",
  "\\ ",
  "\\/",
  "\\0",
  "\\e",
  "\\N",
  "\\_",
  "\\L",
  "\\P",
  "\\\t",
  "\\\n  ",
  "\\\n",
  "\n  ",
  "\n\n  ",
  "  \n  ",
  "\n \n  ",
);
const doubleScalar = fc.array(doubleChar, { maxLength: 30 }).map((parts) => `k: "${parts.join("")}"\n`);

const blockScalar = fc
  .tuple(
    fc.constantFrom("|", ">"),
    fc.constantFrom("", "-", "+"),
    fc.constantFrom(0, 0, 1, 2, 3),
    fc.array(fc.tuple(line, fc.constantFrom(0, 0, 0, 1, 2), fc.constantFrom("", "", " ", "\t")), {
      minLength: 1,
      maxLength: 7,
    }),
    fc.constantFrom("", "\n", "\n\n", "\n  \n"),
  )
  .map(([mode, chomp, indicator, lines, tail]) => {
    const base = indicator === 0 ? 2 : indicator;
    const body = lines
      .map(([l, extra, lead]) => (l === "" ? " ".repeat(extra) : `${" ".repeat(base + extra)}${lead}${l}`))
      .join("\n");
    return `k: ${mode}${indicator === 0 ? "" : indicator}${chomp}\n${body}${tail}x: 1\n`.replace(
      /\n(?=x: 1\n$)/,
      "\n",
    );
  });

const scalarDoc = fc
  .tuple(
    fc.oneof(plainScalar, singleScalar, doubleScalar, blockScalar),
    fc.constantFrom("", "# 😀😀 é\n", "p😀: 😀 é 😀\n", "\uFEFF"),
    fc.boolean(),
  )
  .map(([doc, prefix, crlf]) => {
    const text = prefix + doc;
    return crlf ? text.replace(/\r?\n/g, "\r\n") : text;
  });

describe("position map of generated scalars", () => {
  it("maps every loaded character to a producing source character (plain, quoted, block; LF and CRLF)", () => {
    fc.assert(
      fc.property(scalarDoc, (text) => {
        const loaded = load(text);
        if (!loaded.ok) return;
        const scalar = scalarAt(loaded.root, "k");
        if (typeof scalar.value !== "string") return;
        check(text, scalar.value);
      }),
      { numRuns: 5000 },
    );
  });
});
