// The targeted search behind FUZZ-EXIT-NEVER: before claiming that a loop's exit_criterion never
// holds, it is evaluated for every conforming candidate with every name the engine binds for it
// (docs/reference/runtime.md §25.2, docs/reference/language.md §10.6): `result`; with `accumulate`, the accumulator
// names; with `score_expr`, `best_score`, `prior_scores` and `iteration`. A criterion read blind
// (a name left unbound raises) would be claimed never to hold when it can: a false alarm.
import type { FlowIR, StepIR } from "../../checker/index";
import { FUZZ_EXIT_NEVER } from "../../checker/index";
import type { Expr } from "../../grammar/index";
import { walk } from "../../grammar/index";
import type { PathSource } from "../../interpreter/index";
import type { PyValue } from "../../stdlib/index";
import { PyFloat } from "../../stdlib/index";
import type { Observation } from "../run/observation";
import { bindable, evaluateExpr, type Solver } from "../solver";

/** Dry streaks searched go no further than this (nor than max_iterations). */
const MAX_DRY_STREAK = 8;
/** Every iteration number up to this many is searched (and the last, of a longer loop). */
const MAX_ITERATIONS_SEARCHED = 16;
/** Reports evaluated at most; a search that would need more makes no claim. */
const MAX_REPORTS_SEARCHED = 200_000;
const ACCUMULATOR_NAMES = ["accumulator", "accumulated_count", "new_count", "dry_streak"];
const SCORE_NAMES = ["best_score", "prior_scores", "iteration"];

/** The score names for one report: its iteration number and the scores of the earlier reports. */
interface ScoreContext {
  readonly iteration: number;
  readonly prior: readonly number[];
}

/**
 * The iteration numbers searched: 1 to max_iterations (the loop's last report), or, for a longer
 * loop, 1 to MAX_ITERATIONS_SEARCHED and max_iterations (`partial`).
 */
function iterationNumbers(maxIterations: number): { numbers: number[]; partial: boolean } {
  const last = Math.max(1, maxIterations);
  const first = Array.from({ length: Math.min(last, MAX_ITERATIONS_SEARCHED) }, (_, i) => i + 1);
  const partial = last > MAX_ITERATIONS_SEARCHED;
  return { numbers: partial ? [...first, last] : first, partial };
}

/** Whether the expression reads one of these names. */
function reads(e: Expr, names: readonly string[]): boolean {
  let found = false;
  walk(e, {
    enter(node) {
      if (node.kind === "Name" && names.includes(node.id)) found = true;
      return !found;
    },
  });
  return found;
}

/**
 * Score histories for a scored loop, from the candidates' own scores: for each iteration number
 * (iterationNumbers), earlier reports that all scored the lowest, all the highest, or all the same
 * as this report (a plateau), rising or falling through the distinct scores, or that never scored.
 */
function scoreContexts(maxIterations: number, scores: readonly number[]): ScoreContext[][] {
  const distinct = [...new Set(scores)].sort((a, b) => a - b);
  const out: ScoreContext[][] = [];
  for (const iteration of iterationNumbers(maxIterations).numbers) {
    const n = iteration - 1;
    const histories: (readonly number[] | "plateau")[] = [[], "plateau"];
    if (distinct.length > 0) {
      const lo = distinct[0]!;
      const hi = distinct[distinct.length - 1]!;
      const rising = Array.from({ length: n }, (_, i) => distinct[Math.min(i, distinct.length - 1)]!);
      histories.push(Array(n).fill(lo), Array(n).fill(hi), rising, [...rising].reverse());
    }
    out.push(histories.map((h) => ({ iteration, prior: h === "plateau" ? Array(n).fill(Number.NaN) : h })));
  }
  return out;
}

function scoreNames(ctx: ScoreContext, current: number | null): [string, PyValue][] {
  // NaN marks a plateau: the earlier reports scored what this one does (or nothing, unscored).
  const prior = ctx.prior.flatMap((s) => (Number.isNaN(s) ? (current === null ? [] : [current]) : [s]));
  const all = current === null ? prior : [...prior, current];
  const best = all.length === 0 ? null : new PyFloat(Math.max(...all));
  return [
    ["best_score", best],
    ["prior_scores", prior.map((s) => new PyFloat(s))],
    ["iteration", ctx.iteration],
  ];
}

export function exitNever(
  solver: Solver,
  flow: FlowIR,
  step: StepIR,
  ctx: readonly PathSource[],
): Observation | null {
  const criterion = step.exitCriterion!;
  const scored = step.scoreExpr !== null;
  const iterations = iterationNumbers(step.maxIterations ?? 1);
  // A long loop's middle iterations are not searched: a criterion that counts them proves nothing.
  if (scored && iterations.partial && reads(criterion.ast, ["iteration", "prior_scores"])) return null;
  let tried = 0;
  const candidates = solver.conforming(step);
  // Accumulators of 0, 3 and 50 results. A scored loop's search is a product of the accumulator
  // names and the score names: the names the criterion does not read keep one value each.
  const accumulates = step.accumulate !== null && !(scored && !reads(criterion.ast, ACCUMULATOR_NAMES));
  const lists: PyValue[][] =
    scored && !accumulates
      ? [[]]
      : [[], candidates.slice(0, 3).map((c) => c.value), candidates.slice(0, 50).map((c) => c.value)];
  // dry_streak counts reports that added nothing (only with accumulate): never above max_iterations.
  const maxDry = accumulates ? Math.min(step.maxIterations ?? 0, MAX_DRY_STREAK) : 0;
  const readsScores = scored && reads(criterion.ast, SCORE_NAMES);
  const dryStreaks = Array.from({ length: maxDry + 1 }, (_, i) => i);
  let histories = 0;
  for (const paths of ctx) {
    const scores = candidates.map((c) => solver.scoreOfValue(step, c.value, paths));
    const rounds = !scored
      ? [null]
      : readsScores
        ? scoreContexts(
            step.maxIterations ?? 1,
            scores.filter((s) => s !== null),
          ).flat()
        : [{ iteration: 1, prior: [] }];
    histories = rounds.length;
    for (const accumulator of lists) {
      for (const round of rounds) {
        // A dry streak counts reports of this round: never above the iteration number.
        for (const dry of round === null || !readsScores
          ? dryStreaks
          : dryStreaks.slice(0, round.iteration + 1)) {
          for (const [i, c] of candidates.entries()) {
            tried++;
            const names = new Map<string, PyValue>([
              ["result", bindable(c.value)],
              ["accumulator", accumulator],
              ["accumulated_count", accumulator.length],
              ["new_count", dry === 0 ? accumulator.length : 0],
              ["dry_streak", dry],
              ...(round === null ? [] : scoreNames(round, scores[i] ?? null)),
            ]);
            if (evaluateExpr(criterion, names, paths, null) === true) return null;
            // A search cut short proves nothing: no claim rather than a false alarm.
            if (tried >= MAX_REPORTS_SEARCHED) return null;
          }
        }
      }
    }
  }
  if (tried === 0) return null;
  const sizes = [...new Set(lists.map((l) => l.length))].join(", ");
  const streaks = maxDry === 0 ? "" : ` and dry streaks 0 to ${maxDry}`;
  const accumulators = lists.length === 1 ? "" : `, with accumulators of ${sizes} results${streaks}`;
  const last = iterations.numbers[iterations.numbers.length - 1] ?? 1;
  const scoreText = readsScores
    ? `, ${histories} score histories over iterations 1 to ${iterations.partial ? `${MAX_ITERATIONS_SEARCHED} and ${last}` : last}`
    : "";
  const derived = solver.derivedCount(step);
  const searchedText = `${derived} derived from the step's shape and expressions and ${candidates.length - derived} drawn${accumulators}${scoreText}, in ${ctx.length} contexts`;
  return {
    code: FUZZ_EXIT_NEVER.code,
    flow: flow.name,
    step: step.id,
    anchor: { kind: "field", key: "exit_criterion" },
    message: FUZZ_EXIT_NEVER.message(step.id, tried, searchedText),
    related: [],
    call: -1,
  };
}
