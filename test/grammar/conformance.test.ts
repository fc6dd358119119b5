// Every expression of the shared conformance list parses (or is rejected) as its note says.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseExpression } from "../../grammar/parse";
import { EXPRESSIONS_TSV } from "../support/shared";

const TSV = EXPRESSIONS_TSV;

const rows = readFileSync(TSV, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "" && !line.startsWith("#"))
  .map((line) => line.split("\t"))
  .filter((cols) => cols[0] !== "kind" && cols.length >= 3)
  .map(([kind, note, ...rest]) => ({ kind: kind!, note: note!, expression: rest.join("\t") }));

const PARSES = new Set(["ok", "unknown-helper", "unknown-name", "dunder"]);

describe("conformance expressions", () => {
  it("has rows of every note", () => {
    expect(rows.filter((r) => r.note === "ok").length).toBeGreaterThan(100);
    expect(rows.some((r) => r.note === "syntax-error")).toBe(true);
  });
  for (const row of rows) {
    it(`${row.note}: ${row.expression}`, () => {
      const result = parseExpression(row.expression);
      if (PARSES.has(row.note)) {
        expect(result.diagnostics).toEqual([]);
        expect(result.expr).not.toBeNull();
      } else {
        expect(row.note).toBe("syntax-error");
        expect(result.diagnostics.length).toBeGreaterThan(0);
        expect(result.diagnostics.every((d) => d.code === "EXPR-SYNTAX")).toBe(true);
      }
    });
  }
});
