// Which expression fields are reported as misplaced (docs/reference/language.md §9.3, last bullet). Such a field
// is not parsed or type-checked at all, so the expression phase asks these predicates and the
// semantic rules that report the misplacement use the very same ones: the two never disagree.
import { isTypedStepKind } from "../base/step-kinds";
import type { FunctionDecl, StepDecl, StepKind } from "../model/types";

export type ExpressionField =
  | "ensure"
  | "skip_if"
  | "exit_criterion"
  | "accumulate"
  | "accumulate_key"
  | "score_expr";

const NONE: ReadonlySet<ExpressionField> = new Set();

/** The kinds of step that are neither gates nor 0.3 typed kinds: function, inline and sub-flow. */
export const NON_GATE_KINDS: readonly StepKind[] = ["function", "inline", "flow"];

/** A step of a kind that is not a gate (function, inline or sub-flow); null kinds are unknown. */
export function isNonGate(step: StepDecl): boolean {
  return step.kind === "function" || step.kind === "inline" || step.kind === "flow";
}

/** A 0.3 decompose, parallel_dispatch, quorum, race or debate step (selected by `type`). */
export function isTypedKind(step: StepDecl): boolean {
  return isTypedStepKind(step.kind);
}

/**
 * SPEC-PARALLEL-STEP-ACCUMULATE: the valid `accumulate` and/or `accumulate_key` of a decompose or
 * parallel_dispatch step (the reference refuses both there).
 */
export function typedKindAccumulateFields(step: StepDecl): readonly ("accumulate" | "accumulate_key")[] {
  if (step.id === null || !isTypedKind(step)) return [];
  const out: ("accumulate" | "accumulate_key")[] = [];
  if (step.valid("accumulate")) out.push("accumulate");
  if (step.valid("accumulate_key")) out.push("accumulate_key");
  return out;
}

/**
 * SPEC-PARALLEL-UNSUPPORTED-KEY for `score_expr`: a valid `score_expr` on a step of a 0.3 typed kind,
 * none of which runs the per-step iteration loop that scores.
 */
export function typedKindScoreExpr(step: StepDecl): boolean {
  return step.id !== null && isTypedKind(step) && step.valid("score_expr");
}

/** The key is absent (a present but invalid value is unknown, so rules that need "absent" skip). */
function absent(step: StepDecl, key: string): boolean {
  return step.entry(key) === undefined;
}

/** SPEC-FN-STEP-FIELD for `ensure`: a valid `ensure` on a function or gate step. */
export function stepEnsureMisplaced(step: StepDecl): boolean {
  return step.id !== null && (step.kind === "function" || step.kind === "gate") && step.valid("ensure");
}

/** SPEC-GATE-EXIT-CRITERION: a valid `exit_criterion` on a gate step. */
export function gateExitCriterion(step: StepDecl): boolean {
  return step.id !== null && step.kind === "gate" && step.valid("exit_criterion");
}

/** SPEC-GATE-ACCUMULATE: the gate's valid `accumulate` and/or `accumulate_key` (both are misplaced). */
export function gateAccumulateFields(step: StepDecl): readonly ("accumulate" | "accumulate_key")[] {
  if (step.id === null || step.kind !== "gate") return [];
  const out: ("accumulate" | "accumulate_key")[] = [];
  if (step.valid("accumulate")) out.push("accumulate");
  if (step.valid("accumulate_key")) out.push("accumulate_key");
  return out;
}

/** SPEC-GATE-SCORE-EXPR: a valid `score_expr` on a gate step. */
export function gateScoreExpr(step: StepDecl): boolean {
  return step.id !== null && step.kind === "gate" && step.valid("score_expr");
}

/** SPEC-SCORE-EXPR-NO-MAX: a non-gate step with `score_expr` and no `max_iterations` key. */
export function scoreExprNoMax(step: StepDecl): boolean {
  return step.id !== null && isNonGate(step) && step.valid("score_expr") && absent(step, "max_iterations");
}

/** SPEC-EXIT-CRITERION-NO-MAX: a non-gate step with `exit_criterion` and no `max_iterations` key. */
export function exitCriterionNoMax(step: StepDecl): boolean {
  return (
    step.id !== null && isNonGate(step) && step.valid("exit_criterion") && absent(step, "max_iterations")
  );
}

/** SPEC-ACCUMULATE-NO-MAX: a non-gate step with `accumulate` and no `max_iterations` key. */
export function accumulateNoMax(step: StepDecl): boolean {
  return step.id !== null && isNonGate(step) && step.valid("accumulate") && absent(step, "max_iterations");
}

/** SPEC-ACCUMULATE-KEY-NO-ACCUMULATE: a non-gate step with `accumulate_key` and no `accumulate` key. */
export function accumulateKeyNoAccumulate(step: StepDecl): boolean {
  return step.id !== null && isNonGate(step) && step.valid("accumulate_key") && absent(step, "accumulate");
}

/** The expression fields of a step that a semantic rule reports as misplaced. */
export function misplacedExpressionFields(step: StepDecl): ReadonlySet<ExpressionField> {
  const out = new Set<ExpressionField>();
  if (stepEnsureMisplaced(step)) out.add("ensure");
  if (gateExitCriterion(step) || exitCriterionNoMax(step)) out.add("exit_criterion");
  for (const f of gateAccumulateFields(step)) out.add(f);
  for (const f of typedKindAccumulateFields(step)) out.add(f);
  if (accumulateNoMax(step)) out.add("accumulate");
  if (accumulateKeyNoAccumulate(step)) out.add("accumulate_key");
  if (gateScoreExpr(step) || typedKindScoreExpr(step) || scoreExprNoMax(step)) out.add("score_expr");
  return out.size === 0 ? NONE : out;
}

/** SPEC-GATE-FN-ENSURE: a gate function with a valid, non-empty `ensure` list. */
export function functionEnsureMisplaced(fn: FunctionDecl): boolean {
  if (fn.mode !== "gate") return false;
  const ensure = fn.strings("ensure");
  return ensure !== null && ensure.value.length > 0;
}
