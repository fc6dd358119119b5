// Property tests: the parser never throws, locations stay inside the text, children inside their
// parents, and printing a tree then parsing it gives the same tree back (offsets aside).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Expr } from "../../grammar/ast";
import { parseExpression } from "../../grammar/parse";
import { printExpr } from "../../grammar/printer";
import { walk } from "../../grammar/walk";
import { exprArb, stripOffsets } from "./arbitrary-ast";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

const TOKENS = [
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  ".",
  "=",
  "+",
  "-",
  "*",
  "/",
  "//",
  "%",
  "**",
  "<",
  ">",
  "==",
  "!=",
  "<>",
  ":=",
  "~",
  "|",
  "$",
  "$.",
  "$.input.x",
  "not",
  "in",
  "is",
  "if",
  "else",
  "for",
  "and",
  "or",
  "lambda",
  "x",
  "f",
  "1",
  "0x",
  "1e",
  "1.5",
  "'a'",
  "'",
  '"',
  "'''",
  "f'",
  "b'",
  "\\",
  "#",
  "\n",
  " ",
  "é",
  "😀",
  "\ud800",
];

const soupArb = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((parts) => parts.join(""));
const textArb = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: "binary", maxLength: 40 }), soupArb);

function checkLocations(text: string): void {
  const result = parseExpression(text);
  for (const d of result.diagnostics) {
    expect(d.start).toBeGreaterThanOrEqual(0);
    expect(d.end).toBeGreaterThanOrEqual(d.start);
    expect(d.end).toBeLessThanOrEqual(text.length);
  }
  if (result.diagnostics.length === 0) expect(result.expr).not.toBeNull();
  if (result.expr === null) return;
  walk(result.expr, {
    enter(node, parent) {
      expect(node.start).toBeGreaterThanOrEqual(0);
      expect(node.end).toBeGreaterThanOrEqual(node.start);
      expect(node.end).toBeLessThanOrEqual(text.length);
      if (parent !== null) {
        expect(node.start).toBeGreaterThanOrEqual(parent.start);
        expect(node.end).toBeLessThanOrEqual(parent.end);
      }
      return true;
    },
  });
}

describe("parseExpression on arbitrary text", () => {
  it("never throws; diagnostics and node spans lie in the text; children lie in parents", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        checkLocations(text);
      }),
      { numRuns: RUNS * 5 },
    );
  });
  it("keeps children inside parents for valid expressions with layout", () => {
    fc.assert(
      fc.property(exprArb(3), fc.constantFrom(" ", "\n", "  # c\n"), (e, gap) => {
        const text = printExpr(e).replaceAll(" ", gap === " " ? " " : gap);
        const result = parseExpression(text);
        if (result.diagnostics.length === 0) checkLocations(text);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("printExpr", () => {
  it("re-parses to the same tree (modulo offsets)", () => {
    fc.assert(
      fc.property(exprArb(4), (e: Expr) => {
        const text = printExpr(e);
        const result = parseExpression(text);
        expect(result.diagnostics, text).toEqual([]);
        expect(stripOffsets(result.expr), text).toEqual(stripOffsets(e));
      }),
      { numRuns: RUNS },
    );
  });
  it("is a fixed point on parsed text", () => {
    fc.assert(
      fc.property(exprArb(3), (e: Expr) => {
        const once = printExpr(e);
        expect(printExpr(parseExpression(once).expr!)).toBe(once);
      }),
      { numRuns: RUNS },
    );
  });
});
