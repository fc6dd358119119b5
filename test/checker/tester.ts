// A typescript-eslint-style table runner for the expression checker: `valid` expressions produce
// no diagnostic at all; each `invalid` case lists exactly the diagnostics expected, in order,
// by code and range (`at`: the first occurrence of that substring, or explicit offsets).
import { describe, expect, it } from "vitest";
import { checkExpression, type ExprEnvironment } from "../../checker/expr/check-expression";

interface ExpectedDiagnostic {
  readonly code: string;
  /** The text the range covers: its first occurrence (after `from`, if given) in the expression. */
  readonly at?: string;
  readonly from?: number;
  readonly start?: number;
  readonly end?: number;
  readonly message?: string;
  readonly suggestion?: string | null;
  readonly fixText?: string;
}

export interface InvalidCase {
  readonly code: string;
  readonly env?: ExprEnvironment;
  readonly errors: readonly ExpectedDiagnostic[];
}

export interface Cases {
  readonly valid: readonly (string | { code: string; env: ExprEnvironment })[];
  readonly invalid: readonly InvalidCase[];
}

function rangeOf(code: string, e: ExpectedDiagnostic): { start: number; end: number } {
  if (e.at !== undefined) {
    const start = code.indexOf(e.at, e.from ?? 0);
    if (start < 0) throw new Error(`'${e.at}' does not occur in ${code}`);
    return { start, end: start + e.at.length };
  }
  if (e.start === undefined || e.end === undefined)
    throw new Error("an expected diagnostic needs `at` or offsets");
  return { start: e.start, end: e.end };
}

/** Applies a diagnostic's fix edits to the text. */
function applyFix(text: string, edits: readonly { start: number; end: number; newText: string }[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.newText + out.slice(edit.end);
  }
  return out;
}

export function runCases(title: string, env: ExprEnvironment, cases: Cases): void {
  describe(title, () => {
    if (cases.valid.length > 0)
      describe("valid", () => {
        for (const v of cases.valid) {
          const code = typeof v === "string" ? v : v.code;
          it(code, () => {
            const r = checkExpression(code, typeof v === "string" ? env : v.env);
            expect(r.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
          });
        }
      });
    if (cases.invalid.length > 0)
      describe("invalid", () => {
        for (const c of cases.invalid) {
          it(c.code, () => {
            const r = checkExpression(c.code, c.env ?? env);
            const actual = r.diagnostics.map((d) => ({ code: d.code, start: d.start, end: d.end }));
            const expected = c.errors.map((e) => ({ code: e.code, ...rangeOf(c.code, e) }));
            expect(actual).toEqual(expected);
            c.errors.forEach((e, i) => {
              const d = r.diagnostics[i];
              if (d === undefined) return;
              if (e.message !== undefined) expect(d.message).toBe(e.message);
              if (e.suggestion !== undefined) expect(d.suggestion ?? null).toBe(e.suggestion);
              if (e.fixText !== undefined) expect(d.fix && applyFix(c.code, d.fix.edits)).toBe(e.fixText);
            });
          });
        }
      });
  });
}
