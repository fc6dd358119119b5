// Operators (docs/reference/language.md §10.8.5–docs/reference/language.md §10.8.7). Chains are evaluated in loops, never by recursion
// proportional to their length (docs/reference/language.md §10.15).
import type {
  BinaryOperator,
  BinOp,
  BoolOp,
  Compare,
  CompareOperator,
  Expr,
  IfExp,
  UnaryOp,
} from "../../grammar/ast";
import { binaryOp, unaryOp } from "../../stdlib/values/arithmetic";
import type { Budget } from "../../stdlib/values/budget";
import { pyEquals, pyIs } from "../../stdlib/values/equality";
import { pyContains } from "../../stdlib/values/membership";
import { pyCompare } from "../../stdlib/values/ordering";
import { truthy } from "../../stdlib/values/truth";
import type { PyValue } from "../../stdlib/values/value";
import type { Code, CompileFn } from "./context";
import type { CompileScope } from "./scope";

/**
 * `a + b - c * d …`: the AST is left-nested, so the left spine is walked iteratively. Every BinOp
 * of the spine is charged up front, as a recursive evaluator would charge them before reaching
 * the leftmost operand.
 */
export function compileBinOp(node: BinOp, compile: CompileFn, scope: CompileScope | null): Code {
  const ops: BinaryOperator[] = [];
  const rights: Expr[] = [];
  let base: Expr = node;
  while (base.kind === "BinOp") {
    ops.push(base.op);
    rights.push(base.right);
    base = base.left;
  }
  ops.reverse();
  rights.reverse();
  const first = compile(base, scope);
  const codes = rights.map((r) => compile(r, scope));
  const n = ops.length;
  if (n === 1) {
    const op = ops[0]!;
    const right = codes[0]!;
    return (ctx, frame) => {
      const budget = ctx.env.budget;
      budget.charge(1);
      const a = first(ctx, frame);
      return binaryOp(op, a, right(ctx, frame), budget);
    };
  }
  return (ctx, frame) => {
    const budget = ctx.env.budget;
    budget.charge(n);
    let v = first(ctx, frame);
    for (let i = 0; i < n; i++) v = binaryOp(ops[i]!, v, codes[i]!(ctx, frame), budget);
    return v;
  };
}

/** `and` / `or` return an operand and evaluate only what they need (docs/reference/language.md §10.8.6). */
export function compileBoolOp(node: BoolOp, compile: CompileFn, scope: CompileScope | null): Code {
  const codes = node.values.map((v) => compile(v, scope));
  const last = codes.length - 1;
  const isAnd = node.op === "and";
  return (ctx, frame) => {
    ctx.env.budget.charge(1);
    for (let i = 0; i < last; i++) {
      const v = codes[i]!(ctx, frame);
      if (truthy(v) !== isAnd) return v;
    }
    return codes[last]!(ctx, frame);
  };
}

function comparator(op: CompareOperator): (a: PyValue, b: PyValue, budget: Budget) => boolean {
  switch (op) {
    case "==":
      return (a, b, budget) => pyEquals(a, b, budget);
    case "!=":
      return (a, b, budget) => !pyEquals(a, b, budget);
    case "<":
    case "<=":
    case ">":
    case ">=":
      return (a, b, budget) => pyCompare(op, a, b, budget);
    case "in":
      return (a, b, budget) => pyContains(b, a, budget);
    case "not in":
      return (a, b, budget) => !pyContains(b, a, budget);
    case "is":
      return (a, b) => pyIs(a, b);
    case "is not":
      return (a, b) => !pyIs(a, b);
  }
}

/** `a < b <= c`: each operand evaluated at most once, stopping at the first false (docs/reference/language.md §10.8.7). */
export function compileCompare(node: Compare, compile: CompileFn, scope: CompileScope | null): Code {
  const left = compile(node.left, scope);
  const tests = node.ops.map((o) => comparator(o.op));
  const codes = node.comparators.map((c) => compile(c, scope));
  const n = codes.length;
  if (n === 1) {
    const test = tests[0]!;
    const right = codes[0]!;
    return (ctx, frame) => {
      const budget = ctx.env.budget;
      budget.charge(1);
      const a = left(ctx, frame);
      return test(a, right(ctx, frame), budget);
    };
  }
  return (ctx, frame) => {
    const budget = ctx.env.budget;
    budget.charge(1);
    let a = left(ctx, frame);
    for (let i = 0; i < n; i++) {
      const b = codes[i]!(ctx, frame);
      if (!tests[i]!(a, b, budget)) return false;
      a = b;
    }
    return true;
  };
}

export function compileUnaryOp(node: UnaryOp, compile: CompileFn, scope: CompileScope | null): Code {
  const operand = compile(node.operand, scope);
  const op = node.op;
  if (op === "not") {
    return (ctx, frame) => {
      ctx.env.budget.charge(1);
      return !truthy(operand(ctx, frame));
    };
  }
  return (ctx, frame) => {
    ctx.env.budget.charge(1);
    return unaryOp(op, operand(ctx, frame));
  };
}

/** `body if test else orelse`: the test, then exactly one branch. */
export function compileIfExp(node: IfExp, compile: CompileFn, scope: CompileScope | null): Code {
  const test = compile(node.test, scope);
  const body = compile(node.body, scope);
  const orelse = compile(node.orelse, scope);
  return (ctx, frame) => {
    ctx.env.budget.charge(1);
    return truthy(test(ctx, frame)) ? body(ctx, frame) : orelse(ctx, frame);
  };
}
