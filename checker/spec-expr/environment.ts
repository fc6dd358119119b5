// The names bound in each expression position (docs/reference/language.md §10.6, docs/reference/language.md §10.12.2) and the reasons of
// EXPR-NAME-UNAVAILABLE for the position names that are not bound there (docs/reference/language.md §9.5.5).
import type { Path, PathRef } from "../../grammar/ast";
import { ANY, FLOAT, INT, listOf, NONE, type Type } from "../../stdlib/types/type";
import { members, union } from "../../stdlib/types/union";
import type { ExprEnvironment, ExpressionKind } from "../expr/types";

const RESULT_IN_SKIP_IF =
  "skip_if is evaluated before the step runs; read earlier outputs with $.steps.<id>.output";
const RESULT_IN_ACCUMULATE_KEY = "accumulate_key sees one extracted element as item";
const ITEM_ELSEWHERE = "item is bound only in accumulate_key";
const ACCUMULATOR_ELSEWHERE = "it is bound only in exit_criterion of a step that declares accumulate";

const ACCUMULATOR_NAMES = ["accumulator", "accumulated_count", "new_count", "dry_streak"] as const;
const SCORE_ELSEWHERE = "it is bound only in exit_criterion of a step that declares score_expr";

/** The names exit_criterion sees next to score_expr (docs/reference/language.md §11.2). */
const SCORE_NAMES = ["best_score", "prior_scores", "iteration"] as const;

/** `ns[T]` for a record or dict type (the bound `result` / `item`), else the type itself. */
function namespaceOver(t: Type): Type {
  return t.k === "record" || t.k === "dict" ? { k: "ns", of: t } : t;
}

/** The type of `result`: `ns[R(s)]` when R(s) is a record or dict type, `any` otherwise. */
export function resultBinding(resultType: Type): Type {
  return resultType.k === "record" || resultType.k === "dict" ? { k: "ns", of: resultType } : ANY;
}

/** The element type of an `accumulate` expression's list type (`any` when unknown). */
export function elementType(accumulateType: Type): Type {
  const lists = members(accumulateType).filter((m) => m.k === "list");
  if (accumulateType.k === "any" || lists.length === 0) return ANY;
  return union(...lists.map((l) => (l.k === "list" ? l.elem : ANY)));
}

export interface PositionTypes {
  /** R(s), for `result`. */
  readonly result: Type;
  /** The accumulate element type E, for `item` and `accumulator`. */
  readonly element: Type;
  /** The step declares `accumulate` (binds the accumulator names in exit_criterion). */
  readonly accumulates: boolean;
  /** The step declares `score_expr` (binds best_score, prior_scores and iteration in exit_criterion). */
  readonly scores?: boolean;
  readonly pathType: ((ref: PathRef, node: Path) => Type) | undefined;
  /** `Step '<s>'` or `Function '<fn>'` (EXPR-DUNDER). */
  readonly owner: string;
}

export function environment(kind: ExpressionKind, p: PositionTypes): ExprEnvironment {
  const names = new Map<string, Type>();
  const unavailable = new Map<string, string>();
  if (kind === "skip_if") unavailable.set("result", RESULT_IN_SKIP_IF);
  else if (kind === "accumulate_key") unavailable.set("result", RESULT_IN_ACCUMULATE_KEY);
  else names.set("result", resultBinding(p.result));
  if (kind === "accumulate_key") names.set("item", namespaceOver(p.element));
  else unavailable.set("item", ITEM_ELSEWHERE);
  if (kind === "exit_criterion" && p.accumulates) {
    names.set("accumulator", listOf(p.element));
    names.set("accumulated_count", INT);
    names.set("new_count", union(INT, NONE));
    names.set("dry_streak", INT);
  } else {
    for (const name of ACCUMULATOR_NAMES) unavailable.set(name, ACCUMULATOR_ELSEWHERE);
  }
  if (kind === "exit_criterion" && p.scores === true) {
    // Scores are Python floats: an int score is converted when it is recorded.
    names.set("best_score", union(FLOAT, NONE));
    names.set("prior_scores", listOf(FLOAT));
    names.set("iteration", INT);
  } else {
    for (const name of SCORE_NAMES) unavailable.set(name, SCORE_ELSEWHERE);
  }
  return {
    kind,
    names,
    unavailable,
    ...(p.pathType !== undefined ? { pathType: p.pathType } : {}),
    owner: p.owner,
  };
}
