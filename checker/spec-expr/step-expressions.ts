// Every expression field of a step, with where the expression table keeps its checked
// expression: the one list the editor services read (site detection, environments, hover,
// semantic tokens, the symbol index), so that a new expression field is added in one place.
import type { StepDecl } from "../model/types";
import type { CheckedExpression, ExpressionTable } from "./types";

type Lookup = (table: ExpressionTable, step: StepDecl) => CheckedExpression | null;

/**
 * The single-expression fields of a step (`ensure`, a list, is the other one): the positions of
 * docs/reference/language.md §10.6, a quorum's `agree_on` (docs/reference/language.md §6.5), a parallel_dispatch
 * step's `validate` (docs/reference/language.md §6.4) and a debate's `converge` (docs/reference/language.md §6.7).
 */
const FIELDS = {
  skip_if: (table, step) => table.step(step).skipIf,
  exit_criterion: (table, step) => table.step(step).exitCriterion,
  accumulate: (table, step) => table.step(step).accumulate,
  accumulate_key: (table, step) => table.step(step).accumulateKey,
  score_expr: (table, step) => table.step(step).scoreExpr,
  agree_on: (table, step) => table.step(step).agreeOn ?? null,
  validate: (table, step) => table.parallelValidate(step),
  converge: (table, step) => table.debateConverge(step),
} as const satisfies Record<string, Lookup>;

export type StepExpressionField = keyof typeof FIELDS;

/** The single-expression fields by key (a Map: the keys tested against it are user text). */
export const STEP_EXPRESSION_FIELDS: ReadonlyMap<string, Lookup> = new Map(Object.entries(FIELDS));

export function isStepExpressionField(key: string): key is StepExpressionField {
  return STEP_EXPRESSION_FIELDS.has(key);
}

/** Every checked expression of a step: its ensure items, then each single-expression field. */
export function checkedStepExpressions(table: ExpressionTable, step: StepDecl): CheckedExpression[] {
  const out = [...table.step(step).ensure];
  for (const lookup of STEP_EXPRESSION_FIELDS.values()) {
    const checked = lookup(table, step);
    if (checked !== null) out.push(checked);
  }
  return out;
}
