// Runs the conformance table through the checker and the evaluator, and re-checks the table's
// value and error expectations against CPython (the differential oracle).
import { describe, expect, it } from "vitest";
import { bindingsFromJson, environmentOf } from "../support/bindings";
import { errorKind, errorMessage, isArityMessage, runOracle } from "../support/oracle";
import { runExpression } from "../support/run-expression";
import type { ExpressionCase } from "./case-types";
import { examplePaths } from "./example-paths";
import { EXPRESSION_CASE_GROUPS } from "./expression-cases";

function title(c: ExpressionCase): string {
  const text = c.expr.length > 70 ? `${c.expr.slice(0, 67)}...` : c.expr;
  return JSON.stringify(text);
}

function run(c: ExpressionCase) {
  const names = bindingsFromJson(c.bindings);
  const env = environmentOf(names, {
    ...(c.kind === undefined ? {} : { kind: c.kind }),
    ...(c.owner === undefined ? {} : { owner: c.owner }),
    ...(c.types === undefined ? {} : { types: new Map(Object.entries(c.types)) }),
    ...(c.unavailable === undefined ? {} : { unavailable: new Map(Object.entries(c.unavailable)) }),
  });
  return runExpression(c.expr, env, names, c.paths ? { paths: examplePaths() } : {});
}

function describeDiagnostics(outcome: ReturnType<typeof run>): string {
  return JSON.stringify(outcome.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`));
}

function checkCase(c: ExpressionCase): void {
  const outcome = run(c);
  const e = c.expect;
  const diagnostics = describeDiagnostics(outcome);
  if ("repr" in e) {
    expect(outcome.errorCodes, `no error diagnostics expected, got ${diagnostics}`).toEqual([]);
    if (e.warning !== undefined) {
      expect(
        outcome.diagnostics.map((d) => d.code),
        `warning expected, got ${diagnostics}`,
      ).toContain(e.warning);
    }
    expect(outcome.evaluation).toEqual({ repr: e.repr });
    return;
  }
  if ("error" in e) {
    if (e.static !== undefined) {
      const codes = typeof e.static === "string" ? [e.static] : e.static;
      expect(
        outcome.errorCodes.some((code) => codes.includes(code)),
        `static ${codes.join(" or ")} expected, got ${diagnostics}`,
      ).toBe(true);
      if (e.message !== undefined && typeof e.static === "string") {
        const wanted = e.static === "EXPR-TYPE" ? `${e.message} (this always fails at run time)` : e.message;
        expect(outcome.diagnostics.filter((d) => d.code === e.static).map((d) => d.message)).toContain(
          wanted,
        );
      }
    } else {
      const allowed = e.staticMay ?? [];
      const unexpected = outcome.errorCodes.filter((code) => !allowed.includes(code));
      expect(unexpected, `no static error expected, got ${diagnostics}`).toEqual([]);
    }
    const evaluation = outcome.evaluation;
    expect(evaluation && "kind" in evaluation ? evaluation.kind : evaluation, diagnostics).toBe(e.error);
    if (e.message !== undefined && evaluation && "message" in evaluation) {
      expect(evaluation.message).toBe(e.message);
    }
    return;
  }
  const matching = outcome.diagnostics.filter((d) => d.code === e.static);
  expect(matching.length, `${e.static} expected, got ${diagnostics}`).toBeGreaterThan(0);
  if (e.message !== undefined) expect(matching.map((d) => d.message)).toContain(e.message);
}

/** Cases whose outcome CPython (through the oracle) must reproduce. */
function cpythonComparable(c: ExpressionCase): boolean {
  return (
    !("static" in c.expect && !("error" in c.expect)) && !c.paths && !c.types && c.divergence === undefined
  );
}

function cpythonMismatch(c: ExpressionCase, got: { repr: string } | { error: string }): string | null {
  const e = c.expect;
  if ("repr" in e) return "repr" in got && got.repr === e.repr ? null : `expected ${e.repr}`;
  if (!("error" in e)) return null;
  if (!("error" in got)) return `expected ${e.error}`;
  if (errorKind(got.error) !== e.error) return `expected ${e.error}`;
  if (e.message === undefined || isArityMessage(e.message)) return null;
  return errorMessage(got.error) === e.message ? null : `expected message ${e.message}`;
}

for (const [group, cases] of Object.entries(EXPRESSION_CASE_GROUPS)) {
  describe(`conformance: ${group}`, () => {
    cases.forEach((c, i) => {
      it(`#${i} ${title(c)}`, () => checkCase(c));
    });

    it("CPython agrees with every value and run-time error of the table", () => {
      const comparable = cases.filter(cpythonComparable);
      const results = runOracle(
        comparable.map((c) => ({ expr: c.expr, ...(c.bindings ? { bindings: c.bindings } : {}) })),
      );
      const mismatches = comparable.flatMap((c, i) => {
        const got = results[i];
        if (got === undefined) return [`${c.expr}: no answer`];
        const problem = cpythonMismatch(c, got);
        const shown = c.expr.length > 200 ? `${c.expr.slice(0, 200)}...` : c.expr;
        return problem === null ? [] : [`${shown}: CPython ${JSON.stringify(got)}, ${problem}`];
      });
      expect(mismatches).toEqual([]);
    });
  });
}
