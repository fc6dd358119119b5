// Compiles an expression AST once into nested JS closures (no host-language eval), evaluated with
// Python semantics (docs/reference/language.md §10.8). All value semantics come from stdlib/values and
// stdlib/builtins; this module only wires evaluation order, scoping and the budget.
import type { Expr, Subscript } from "../../grammar/ast";
import { PyError } from "../../stdlib/values/errors";
import { getItem, getSlice } from "../../stdlib/values/subscript";
import { compileAttribute, compileCall } from "./calls";
import { compileGeneratorExp, compileListComp } from "./comprehension";
import type { Code, CompiledExpression, CompileFn } from "./context";
import { compileConstant, compileDict, compileList, compileTuple } from "./displays";
import { guard, guardedFailure } from "./guard";
import { compileName } from "./names";
import { compileBinOp, compileBoolOp, compileCompare, compileIfExp, compileUnaryOp } from "./operators";
import { compilePath } from "./paths";
import type { CompileScope } from "./scope";

export type { CompiledExpression, PathSource } from "./context";

const absent: Code = () => null;

function compileSliceBound(e: Expr | null, scope: CompileScope | null): Code {
  return e === null ? absent : compileNode(e, scope);
}

function compileSubscript(node: Subscript, scope: CompileScope | null): Code {
  const obj = compileNode(node.value, scope);
  const index = node.index;
  if (index.kind === "Slice") {
    const lower = compileSliceBound(index.lower, scope);
    const upper = compileSliceBound(index.upper, scope);
    const step = compileSliceBound(index.step, scope);
    return (ctx, frame) => {
      const budget = ctx.env.budget;
      budget.charge(2); // the Subscript and its Slice
      const o = obj(ctx, frame);
      const lo = lower(ctx, frame);
      const up = upper(ctx, frame);
      return getSlice(o, lo, up, step(ctx, frame), budget);
    };
  }
  const key = compileNode(index, scope);
  return (ctx, frame) => {
    const budget = ctx.env.budget;
    budget.charge(1);
    const o = obj(ctx, frame);
    return getItem(o, key(ctx, frame), budget);
  };
}

const compileNode: CompileFn = (e, scope) => {
  switch (e.kind) {
    case "Constant":
      return compileConstant(e);
    case "Name":
      return compileName(e.id, scope);
    case "Path":
      return compilePath(e);
    case "Attribute":
      return compileAttribute(e, compileNode, scope);
    case "Subscript":
      return compileSubscript(e, scope);
    case "Call":
      return compileCall(e, compileNode, scope);
    case "UnaryOp":
      return compileUnaryOp(e, compileNode, scope);
    case "BinOp":
      return compileBinOp(e, compileNode, scope);
    case "BoolOp":
      return compileBoolOp(e, compileNode, scope);
    case "Compare":
      return compileCompare(e, compileNode, scope);
    case "IfExp":
      return compileIfExp(e, compileNode, scope);
    case "List":
      return compileList(e, compileNode, scope);
    case "Tuple":
      return compileTuple(e, compileNode, scope);
    case "Dict":
      return compileDict(e, compileNode, scope);
    case "ListComp":
      return compileListComp(e, compileNode, scope);
    case "GeneratorExp":
      return compileGeneratorExp(e, compileNode, scope);
    case "Error":
      // Only a parse with diagnostics contains holes; a checked expression never reaches here.
      return () => {
        throw new PyError("ValueError", "cannot evaluate an expression that has syntax errors");
      };
  }
};

/**
 * Compiles `expr` once; the result can be evaluated any number of times. It throws PyError only:
 * any other JS error (a bug, or a host resource limit) is converted by `guard`.
 */
export function compileExpression(expr: Expr): CompiledExpression {
  let root: Code;
  try {
    root = compileNode(expr, null);
  } catch (e) {
    // A hand-built AST deeper than the JS stack: report it when evaluated, never at compile time.
    return guardedFailure(e);
  }
  return guard(root);
}
