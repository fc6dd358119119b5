// Scored iteration loops (docs/reference/runtime.md §25.2): each report's score, the best-scored
// result the loop keeps, the names exit_criterion sees next to score_expr and the score
// stagnation rule that replaces the fingerprint rule.
import type { ExpressionIR, StepIR } from "../../checker/ir/types";
import { dictGetStr, makeDict } from "../../stdlib/values/dict";
import { strRepr } from "../../stdlib/values/repr";
import { PyDict, PyFloat, type PyValue, typeName } from "../../stdlib/values/value";
import type { IterationEntry } from "../base/flow-state";
import { bindable, evaluateIn } from "./expressions";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";
import type { RaisedError } from "./violations";

/** The stagnation window of the reference (three iterations). */
const STAGNATION_WINDOW = 3;

export interface Score {
  /** The score as a Python float, or null when the expression gave no number. */
  readonly score: PyFloat | null;
  /** Why there is no score (the history entry's `score_error`). */
  readonly error: string | null;
  /** The run-time error behind `error`, when the expression raised. */
  readonly raised: RaisedError | null;
}

/** The best-scored iteration of a loop, as `iteration_best[step]` stores it. */
export interface BestEntry {
  readonly score: PyFloat;
  readonly iteration: number;
  readonly result: PyValue;
}

/** The step's score expression, when its loop is scored (an empty text scores nothing, as the reference). */
export function scoreExpressionOf(step: StepIR): ExpressionIR | null {
  const expr = step.scoreExpr;
  return expr === null || expr.text === "" ? null : expr;
}

/**
 * Evaluates score_expr on one iteration's result. A bool, any other non-number and a raised error
 * give no score and a message; an int is converted to a float.
 */
export function scoreOf(tx: Tx, run: FlowRun, expr: ExpressionIR, result: PyValue): Score {
  const label = `Score expression ${strRepr(expr.text)}`;
  const value = evaluateIn(tx, run, expr, new Map([["result", bindable(result)]]));
  if (!value.ok) return { score: null, error: `${label} raised: ${value.message}`, raised: value.error };
  const v = value.value;
  if (typeof v === "boolean") {
    return {
      score: null,
      error: `${label} returned bool (${v ? "True" : "False"}), expected numeric`,
      raised: null,
    };
  }
  if (v instanceof PyFloat) return { score: v, error: null, raised: null };
  if (typeof v === "number" || typeof v === "bigint") {
    const n = Number(v);
    // Python's float() refuses an int beyond the float range instead of giving inf.
    if (!Number.isFinite(n)) {
      return { score: null, error: `${label} raised: int too large to convert to float`, raised: null };
    }
    return { score: new PyFloat(n), error: null, raised: null };
  }
  return { score: null, error: `${label} returned non-numeric type ${typeName(v)}`, raised: null };
}

/** `iteration_best[step]` read back (null when absent or not in the stored shape). */
export function bestEntryOf(run: FlowRun, stepId: string): BestEntry | null {
  const stored = run.state.iteration_best.get(stepId);
  if (!(stored instanceof PyDict)) return null;
  const score = dictGetStr(stored, "score");
  const iteration = dictGetStr(stored, "iteration");
  const result = dictGetStr(stored, "result");
  if (!(score instanceof PyFloat) || typeof iteration !== "number" || result === undefined) return null;
  return { score, iteration, result };
}

/** The new best entry when `score` beats the stored best (strictly: ties keep the earlier one), else null. */
export function improvedBest(
  best: BestEntry | null,
  score: PyFloat | null,
  iteration: number,
  result: PyValue,
): PyDict | null {
  if (score === null) return null;
  if (best !== null && !(score.v > best.score.v)) return null;
  return makeDict([
    ["score", score],
    ["iteration", iteration],
    ["result", result],
  ]);
}

/** The non-null scores of the history entries (earlier iterations of this round). */
function priorScores(history: readonly IterationEntry[]): PyFloat[] {
  const out: PyFloat[] = [];
  for (const entry of history) {
    const s = entry.score;
    if (s instanceof PyFloat) out.push(s);
  }
  return out;
}

/** The names exit_criterion sees next to score_expr (best_score includes this iteration). */
export function scoreNames(
  best: BestEntry | null,
  history: readonly IterationEntry[],
  iteration: number,
): ReadonlyMap<string, PyValue> {
  return new Map<string, PyValue>([
    ["best_score", best === null ? null : best.score],
    ["prior_scores", priorScores(history)],
    ["iteration", iteration],
  ]);
}

/**
 * Score stagnation (only without exit_criterion): at least two earlier entries, neither the last
 * two scores nor this one beats the best, and the best is at least three iterations old.
 */
export function isScoreStagnant(
  history: readonly IterationEntry[],
  best: BestEntry | null,
  current: PyFloat | null,
  count: number,
): boolean {
  const window = STAGNATION_WINDOW - 1;
  if (history.length < window || best === null) return false;
  const notAbove = (s: PyValue | undefined): boolean => !(s instanceof PyFloat) || s.v <= best.score.v;
  if (current !== null && !(current.v <= best.score.v)) return false;
  if (!history.slice(-window).every((entry) => notAbove(entry.score))) return false;
  return best.iteration <= count - STAGNATION_WINDOW;
}
