// Property tests: completion, hover, signature help and semantic tokens never throw, on arbitrary
// text and on mutations of a realistic spec (what an editor sees while typing), at any offset;
// every range they return lies inside the document.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { checkSpec } from "../../../../checker/check-spec";
import { completionsAt, hoverAt, semanticTokens, signatureHelpAt } from "../../../../checker/services/assist";
import type { OffsetRange, SpecDocument } from "../../../../checker/services/types";

const EXAMPLE = readFileSync(
  new URL("../../../../examples/accumulator-hunt.stratum.yaml", import.meta.url),
  "utf8",
);

function inside(doc: SpecDocument, range: OffsetRange): boolean {
  return (
    Number.isInteger(range.start) &&
    range.start >= 0 &&
    range.start <= range.end &&
    range.end <= doc.text.length
  );
}

/** Runs every service at `offset` and checks the ranges they return. */
function exercise(text: string, offset: number): void {
  const doc: SpecDocument = { text, check: checkSpec(text) };
  for (const item of completionsAt(doc, offset)) {
    if (item.replace !== undefined) expect(inside(doc, item.replace), JSON.stringify(item)).toBe(true);
    // What an item replaces must contain the cursor (editors reject other items).
    if (item.replace !== undefined) {
      expect(item.replace.start <= offset && offset <= item.replace.end, JSON.stringify(item)).toBe(true);
    }
  }
  const hover = hoverAt(doc, offset);
  if (hover !== null) expect(inside(doc, hover.range)).toBe(true);
  const help = signatureHelpAt(doc, offset);
  if (help !== null) {
    for (const sig of help.signatures) {
      for (const p of sig.parameters) expect(p.label[1] <= sig.label.length).toBe(true);
    }
  }
  let last = 0;
  for (const t of semanticTokens(doc)) {
    expect(inside(doc, t.range) && t.range.start < t.range.end).toBe(true);
    expect(t.range.start >= last).toBe(true);
    last = t.range.start;
    expect(doc.text.slice(t.range.start, t.range.end)).not.toMatch(/[\r\n]/);
  }
}

const PIECES = [
  'version: "0.2"\n',
  "flows:\n",
  "  f:\n",
  "    steps:\n",
  "      - id: a\n",
  "        ensure: [",
  '"result.',
  "len(",
  "$.steps.",
  ".output.",
  "\n",
  "  ",
  "- ",
  ": ",
  "'",
  '"',
  "\\",
  "[",
  "]",
  "{",
  "}",
  ">-\n",
  "|\n",
  "#",
  "é",
  "😀",
  "\r\n",
  "\t",
];

describe("assist services never throw and stay inside the document", () => {
  test("arbitrary text made of YAML and expression pieces", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join("")),
        fc.nat(),
        (text, n) => exercise(text, n % (text.length + 1)),
      ),
      { numRuns: 400 },
    );
  });

  test("arbitrary strings at arbitrary (even out-of-range) offsets", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.integer({ min: -5, max: 100 }), (text, offset) => {
        const doc: SpecDocument = { text, check: checkSpec(text) };
        completionsAt(doc, offset);
        hoverAt(doc, offset);
        signatureHelpAt(doc, offset);
        semanticTokens(doc);
      }),
      { numRuns: 300 },
    );
  });

  test("a realistic spec with one edit (insert or delete) at a random place", () => {
    fc.assert(
      fc.property(
        fc.nat(EXAMPLE.length),
        fc.nat(12),
        fc.constantFrom("", ".", "(", "[", "$.", '"', "'", ": ", "\n      - ", "result.", "x"),
        fc.nat(),
        (at, cut, insert, n) => {
          const text = EXAMPLE.slice(0, at) + insert + EXAMPLE.slice(Math.min(EXAMPLE.length, at + cut));
          const near = Math.min(text.length, at + insert.length);
          exercise(text, n % 2 === 0 ? near : n % (text.length + 1));
        },
      ),
      { numRuns: 150 },
    );
  });
});
