// Results of the expression-and-reference phase (docs/reference/language.md §9.5.5), consumed by the IR builder
// and (later) the language server for hover and completion.
import type { Expr, PathRef } from "../../grammar/ast";
import type { Type } from "../../stdlib/types/type";
import type { ExpressionKind } from "../expr/types";
import type { FunctionDecl, StepDecl } from "../model/types";
import type { PropertyKind } from "../schema/spec-schema-properties";
import type { MapEntry, ScalarNode } from "../yaml/nodes";

export interface CheckedExpression {
  readonly kind: ExpressionKind;
  readonly text: string;
  readonly node: ScalarNode;
  /** Null when the text does not parse. */
  readonly ast: Expr | null;
  readonly type: Type;
  /** The type of every sub-expression (hover). */
  readonly types: ReadonlyMap<Expr, Type>;
  /** False when an error-severity diagnostic was reported for it. */
  readonly ok: boolean;
}

export interface StepExpressions {
  readonly skipIf: CheckedExpression | null;
  readonly ensure: readonly CheckedExpression[];
  readonly exitCriterion: CheckedExpression | null;
  readonly accumulate: CheckedExpression | null;
  readonly accumulateKey: CheckedExpression | null;
  /** The step's `score_expr` (docs/reference/language.md §11.2). */
  readonly scoreExpr: CheckedExpression | null;
  /** A quorum step's `agree_on` (null on other steps). */
  readonly agreeOn?: CheckedExpression | null;
}

/** The routing predicates of one pipeline stage (docs/reference/language.md §6.9). */
export interface StagePredicates {
  readonly when: CheckedExpression | null;
  readonly exitWhen: CheckedExpression | null;
}

export interface CheckedInput {
  readonly name: string;
  readonly raw: string;
  /** The parsed reference of a `$…` value (null for a literal or a malformed reference). */
  readonly ref: PathRef | null;
}

/** The `source` of a parallel_dispatch step. */
export interface CheckedSource {
  readonly raw: string;
  /** The parsed `$` reference (null for a literal or a malformed reference). */
  readonly ref: PathRef | null;
}

export interface ExpressionTable {
  /** Expressions of a step that were checked (misplaced fields are absent, docs/reference/language.md §9.3). */
  step(step: StepDecl): StepExpressions;
  /** A function's ensure expressions (checked once per using step; the first check is kept). */
  functionEnsure(fn: FunctionDecl): readonly CheckedExpression[];
  /** The step's inputs with parsed references. */
  inputs(step: StepDecl): readonly CheckedInput[];
  /** The checked `source` of a parallel_dispatch step (null for other steps or without one). */
  parallelSource(step: StepDecl): CheckedSource | null;
  /** The checked `validate` of a parallel_dispatch step (null for other steps or without one). */
  parallelValidate(step: StepDecl): CheckedExpression | null;
  /** A debate step's `converge` (docs/design/concurrency-constructs.md §5), or null. */
  debateConverge(step: StepDecl): CheckedExpression | null;
  /** A pipeline step's `when` / `exit_when`, by stage index (empty on other steps). */
  pipelinePredicates(step: StepDecl): readonly StagePredicates[];
  /** R(s) of docs/reference/language.md §10.12.2 (before `| none`). */
  resultType(step: StepDecl): Type;
  /** The type `$.steps.<id>.output` reads (docs/reference/language.md §10.12.4): R(s) with the accumulator fields; `none` for a gate. */
  outputType(step: StepDecl): Type;
  /** The checked properties, in declaration order (docs/guides/testing-a-spec.md). */
  readonly properties: readonly CheckedProperty[];
}

/** A property whose name, kind and flow are valid, with its checked expressions. */
export interface CheckedProperty {
  readonly name: string;
  readonly flow: string;
  readonly kind: PropertyKind;
  /** The entry in `properties` (a finding about it is anchored at its key). */
  readonly decl: MapEntry;
  /** always / never / eventually: one expression; leads_to: `from`, then `to`. */
  readonly expressions: readonly CheckedExpression[];
}
