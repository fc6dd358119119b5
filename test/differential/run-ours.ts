// Our side of a differential case: check + compile + evaluate in-process, as `stratumc eval`.
import { bindingsFromJson, environmentOf } from "../support/bindings";
import { runExpression } from "../support/run-expression";
import type { Outcome } from "./compare";
import type { DifferentialCase } from "./generator";
import { alwaysEvaluated } from "./reachability";

/**
 * Unpacking a comprehension target happens only for elements actually produced (the iterable
 * may be empty, a generator may never be consumed): such a static error is not "reached".
 */
const UNPACKING = /^(cannot unpack|too many values to unpack|not enough values to unpack)/;

/** Static codes that claim the flagged operation fails whenever it runs. */
const DEFINITE_FAILURES: ReadonlySet<string> = new Set(["EXPR-TYPE", "EXPR-ARITY", "EXPR-UNKNOWN-METHOD"]);

export interface OurResult {
  readonly outcome: Outcome;
  /** Definite-failure diagnostics on operations that run whenever the expression does. */
  readonly definiteFailures: readonly string[];
}

export function runOurs(c: DifferentialCase): OurResult {
  try {
    const names = bindingsFromJson(c.bindings);
    const run = runExpression(c.expr, environmentOf(names), names);
    if (run.evaluation === undefined) {
      const first = run.diagnostics.find((d) => d.severity === "error");
      return { outcome: { error: `SyntaxError: ${first?.code}: ${first?.message}` }, definiteFailures: [] };
    }
    const root = run.expr;
    const definiteFailures = run.diagnostics
      .filter((d) => d.severity === "error" && DEFINITE_FAILURES.has(d.code))
      .filter((d) => root !== null && alwaysEvaluated(root, d) && !UNPACKING.test(d.message))
      // Claims conditional on the iterable's size are checked by test/property/well-typed.test.ts.
      .filter((d) => !/whenever the iterable (is not empty|has two or more elements)\)$/.test(d.message))
      .map((d) => `${d.code}: ${d.message}`);
    const ev = run.evaluation;
    return { outcome: "repr" in ev ? { repr: ev.repr } : { error: ev.error }, definiteFailures };
  } catch (e) {
    // Anything but a PyError escaping check/compile/evaluate is a bug of its own.
    return {
      outcome: { error: `InternalError: ${e instanceof Error ? e.stack : String(e)}` },
      definiteFailures: [],
    };
  }
}
