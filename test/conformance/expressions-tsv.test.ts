// Real expressions (test/conformance/recorded/expressions.tsv): those marked `ok` parse without
// diagnostics; every other one is rejected by the checker with the code its note names.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ExprEnvironment, ExpressionKind } from "../../checker/expr/check-expression";
import { checkExpression } from "../../checker/expr/check-expression";
import { parseExpression } from "../../grammar/parse";
import { ANY, INT, listOf, NONE, type Type } from "../../stdlib/types/type";
import { EXPRESSIONS_TSV } from "../support/shared";

const TSV = EXPRESSIONS_TSV;

const CODE_OF_NOTE: Readonly<Record<string, string>> = {
  "unknown-helper": "EXPR-UNKNOWN-FUNCTION",
  dunder: "EXPR-DUNDER",
  "syntax-error": "EXPR-SYNTAX",
  "unknown-name": "EXPR-UNKNOWN-NAME",
};

interface Row {
  readonly line: number;
  readonly kind: ExpressionKind;
  readonly note: string;
  readonly expr: string;
}

const KINDS: ReadonlySet<string> = new Set([
  "ensure",
  "skip_if",
  "exit_criterion",
  "accumulate",
  "accumulate_key",
]);

function readRows(): Row[] {
  const rows: Row[] = [];
  readFileSync(TSV, "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (text.trim() === "" || text.startsWith("#")) return;
      const [kind, note, ...rest] = text.split("\t");
      if (kind === "kind" && note === "note") return; // the header
      if (kind === undefined || note === undefined || !KINDS.has(kind)) {
        throw new Error(`${TSV}:${i + 1}: malformed row: ${text}`);
      }
      rows.push({ line: i + 1, kind: kind as ExpressionKind, note, expr: rest.join("\t") });
    });
  return rows;
}

const ACCUMULATOR_NAMES: ReadonlyArray<readonly [string, Type]> = [
  ["accumulator", listOf(ANY)],
  ["accumulated_count", INT],
  ["new_count", { k: "union", members: [INT, NONE] }],
  ["dry_streak", INT],
];

function environmentFor(kind: ExpressionKind): ExprEnvironment {
  const names = new Map<string, Type>();
  if (kind === "ensure" || kind === "accumulate" || kind === "exit_criterion") names.set("result", ANY);
  if (kind === "exit_criterion") for (const [name, t] of ACCUMULATOR_NAMES) names.set(name, t);
  if (kind === "accumulate_key") names.set("item", ANY);
  return { kind, names, owner: "Step 's'" };
}

const rows = readRows();

/** Helper calls recorded as unknown that are builtins now (docs/reference/language.md §10.9): checked clean. */
const NOW_BUILTIN = /^(no_file_conflicts|plan_completion|vocabulary_compliance)\(/;

describe("expressions.tsv", () => {
  it("has rows of every note", () => {
    const notes = new Set(rows.map((r) => r.note));
    for (const note of ["ok", ...Object.keys(CODE_OF_NOTE)]) expect(notes).toContain(note);
  });

  for (const row of rows) {
    const title = `line ${row.line} (${row.kind}, ${row.note}): ${row.expr}`;
    if (row.note === "ok") {
      it(title, () => {
        const parsed = parseExpression(row.expr);
        expect(parsed.diagnostics).toEqual([]);
        expect(parsed.expr).not.toBeNull();
      });
      continue;
    }
    if (row.note === "unknown-helper" && NOW_BUILTIN.test(row.expr)) {
      it(title, () => {
        expect(checkExpression(row.expr, environmentFor(row.kind)).diagnostics).toEqual([]);
      });
      continue;
    }
    it(title, () => {
      const code = CODE_OF_NOTE[row.note];
      expect(code, `unknown note '${row.note}'`).toBeDefined();
      const result = checkExpression(row.expr, environmentFor(row.kind));
      const errors = result.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
      expect(errors).toContain(code);
    });
  }
});
