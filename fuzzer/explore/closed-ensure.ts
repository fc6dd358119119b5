// Whether "no result satisfies this ensure" can be claimed from a search: only for an ensure whose
// truth depends on the result through tests of single fields against constants — a field's
// truth, comparisons and membership with literals, len(), int()/float(), startswith/endswith with a
// literal — combined with and, or and not. For those, the derived candidates (values/derived.ts)
// hold every value each test tells apart (the literals, their neighbours, the values between, the
// sizes around each length), so a search that finds none is a fact about the ensure, on any seed.
// Relations between fields, arithmetic on fields, comprehensions, aggregates and `$` paths are
// outside: the search may simply not have met the one value that works, and nothing is claimed.
import type { Expr } from "../../grammar/index";
import { constantOf, conversionOf, resultPath } from "../values/expr-hints";

export function isClosedEnsure(e: Expr): boolean {
  switch (e.kind) {
    case "Constant":
      return true;
    case "BoolOp":
      return e.values.every(isClosedEnsure);
    case "UnaryOp":
      return e.op === "not" ? isClosedEnsure(e.operand) : constantOf(e) !== undefined;
    case "Compare": {
      const operands = [e.left, ...e.comparators];
      return (
        operands.every((o) => isConstant(o) || isFieldTerm(o)) && operands.filter(isFieldTerm).length <= 1
      );
    }
    case "Call":
      return isFieldTest(e);
    default:
      return isFieldTerm(e);
  }
}

/** A literal, or a list or tuple of literals. */
function isConstant(e: Expr): boolean {
  if (e.kind === "List" || e.kind === "Tuple") return e.elts.every((x) => constantOf(x) !== undefined);
  return constantOf(e) !== undefined;
}

/** A single field of the result, as such, or through len(), int() or float(). */
function isFieldTerm(e: Expr): boolean {
  const path = resultPath(e);
  if (path !== null && path.length > 0) return true;
  if (conversionOf(e) !== null) return true;
  if (e.kind === "Call" && e.func.kind === "Name" && e.func.id === "len" && e.args.length === 1) {
    const inner = resultPath(e.args[0]!);
    return inner !== null && inner.length > 0;
  }
  return false;
}

/** `result.f.startswith('x')` / `endswith('x')`. */
function isFieldTest(e: Expr): boolean {
  if (e.kind !== "Call" || e.func.kind !== "Attribute") return false;
  if (e.func.attr !== "startswith" && e.func.attr !== "endswith") return false;
  const path = resultPath(e.func.value);
  return path !== null && path.length > 0 && e.args.length === 1 && isConstant(e.args[0]!);
}
