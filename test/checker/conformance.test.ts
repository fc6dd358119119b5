// The expressions of test/conformance/recorded/expressions.tsv (real specs of the reference
// implementation): each note says whether it must check cleanly or which rule rejects it.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkExpression, type ExpressionKind } from "../../checker/expr/check-expression";
import { ANY } from "../../stdlib/types/type";
import { EXPRESSIONS_TSV } from "../support/shared";

const TSV = EXPRESSIONS_TSV;

const rows = readFileSync(TSV, "utf8")
  .split("\n")
  .filter((line) => line !== "" && !line.startsWith("#") && !line.startsWith("kind\t"))
  .map((line) => {
    const [kind, note, ...rest] = line.split("\t");
    return { kind: kind as ExpressionKind, note: note ?? "", expression: rest.join("\t") };
  });

// Free names of these specs are bound as `any`, so only the rule named by the note can fire.
const FREE = [
  "result",
  "item",
  "accumulator",
  "accumulated_count",
  "new_count",
  "dry_streak",
  "best_score",
  "prior_scores",
  "iteration",
];
const names = new Map(FREE.map((n) => [n, ANY]));

const EXPECTED: Readonly<Record<string, string | null>> = {
  ok: null,
  dunder: "EXPR-DUNDER",
  "unknown-helper": "EXPR-UNKNOWN-FUNCTION",
  "syntax-error": "EXPR-SYNTAX",
  "unknown-name": "EXPR-UNKNOWN-NAME",
};

/**
 * Helper calls recorded as unknown that are builtins now: no_file_conflicts (version 0.3) and the
 * reference's ensure helpers plan_completion and vocabulary_compliance (docs/reference/language.md §10.9).
 */
const NOW_BUILTIN = /^(no_file_conflicts|plan_completion|vocabulary_compliance)\(/;

describe("conformance expressions", () => {
  it("has rows", () => {
    expect(rows.length).toBeGreaterThan(100);
  });
  for (const row of rows) {
    it(`${row.kind} ${row.note}: ${row.expression}`, () => {
      expect(Object.hasOwn(EXPECTED, row.note)).toBe(true);
      const expected = NOW_BUILTIN.test(row.expression) ? null : (EXPECTED[row.note] ?? null);
      const r = checkExpression(row.expression, { kind: row.kind, names });
      const codes = [...new Set(r.diagnostics.filter((d) => d.severity === "error").map((d) => d.code))];
      expect(codes).toEqual(expected === null ? [] : [expected]);
    });
  }
});
