// The expressions a step has because of its kind (checker/kinds/<kind>.ts, `expressions`): a
// parallel_dispatch step's source and validate, a debate's converge, a quorum's agree_on. A key of
// another kind is reported by that kind's SPEC-<KIND>-ONLY-KEY and never checked as an expression.
import { CHECKER_KINDS } from "../kinds/index";
import type { KindExpression } from "../kinds/types";
import type { StepDecl } from "../model/types";

export function kindExpressions(step: StepDecl): readonly KindExpression[] {
  return step.kind === null ? [] : CHECKER_KINDS[step.kind].expressions;
}
