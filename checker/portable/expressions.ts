// The stratumc-only features inside expressions (docs/reference/divergences.md, DIV-BUILTINS-MORE and
// DIV-DOLLAR-EVERYWHERE): a call of a builtin the reference lacks, in any expression, and a `$`
// path anywhere but skip_if. Only the reference's own expression fields are scanned: agree_on,
// validate and converge are stratumc's keys, reported as such.
import type { Expr } from "../../grammar/ast";
import { walk } from "../../grammar/walk";
import type { SpecModel } from "../model/types";
import { namedSteps, stepPath } from "../rules/support";
import type { CheckedExpression, ExpressionTable } from "../spec-expr/types";
import type { ScalarNode } from "../yaml/nodes";
import { builtinFeature, dollarPathFeature, type PortabilityFeature, STRATUMC_BUILTINS } from "./features";

/** One use inside an expression: the scalar, the span in its loaded text, the field's path. */
export interface ExpressionUse {
  readonly node: ScalarNode;
  readonly start: number;
  readonly end: number;
  readonly path: string;
  readonly use: PortabilityFeature;
}

interface Located {
  readonly expression: CheckedExpression | null;
  /** The field as the message names it (`ensure`, `exit_criterion`, …). */
  readonly field: string;
  readonly path: string;
}

export function* expressionUses(model: SpecModel, table: ExpressionTable): Generator<ExpressionUse> {
  for (const located of expressionFields(model, table)) {
    const { expression, field, path } = located;
    if (expression === null || expression.ast === null) continue;
    const node = expression.node;
    for (const found of usesIn(expression.ast, field)) yield { node, path, ...found };
  }
}

function* expressionFields(model: SpecModel, table: ExpressionTable): Generator<Located> {
  for (const fn of model.functions) {
    const list = table.functionEnsure(fn);
    for (const [i, expression] of list.entries())
      yield { expression, field: "ensure", path: `functions.${fn.name}.ensure.${i}` };
  }
  for (const step of namedSteps(model)) {
    const s = table.step(step);
    yield { expression: s.skipIf, field: "skip_if", path: stepPath(step, "skip_if") };
    for (const [i, expression] of s.ensure.entries())
      yield { expression, field: "ensure", path: stepPath(step, `ensure.${i}`) };
    yield { expression: s.exitCriterion, field: "exit_criterion", path: stepPath(step, "exit_criterion") };
    yield { expression: s.accumulate, field: "accumulate", path: stepPath(step, "accumulate") };
    yield { expression: s.accumulateKey, field: "accumulate_key", path: stepPath(step, "accumulate_key") };
    yield { expression: s.scoreExpr, field: "score_expr", path: stepPath(step, "score_expr") };
  }
}

function usesIn(ast: Expr, field: string): { start: number; end: number; use: PortabilityFeature }[] {
  const found: { start: number; end: number; use: PortabilityFeature }[] = [];
  walk(ast, {
    enter(node) {
      if (node.kind === "Call" && node.func.kind === "Name" && STRATUMC_BUILTINS.has(node.func.id)) {
        found.push({ start: node.func.start, end: node.func.end, use: builtinFeature(node.func.id, field) });
      } else if (node.kind === "Path" && field !== "skip_if") {
        found.push({ start: node.start, end: node.end, use: dollarPathFeature(field) });
      }
      return undefined;
    },
  });
  return found;
}
