// Calls and attribute access (docs/reference/language.md §10.8.9). Order (docs/reference/language.md §10.8): the callee first, then the
// arguments left to right, positional before keyword.
import type { Attribute, Call, Expr, Keyword } from "../../grammar/ast";
import { callBuiltin, callMethod, callValue, getAttribute } from "../../stdlib/builtins/attributes";
import { METHODS } from "../../stdlib/builtins/methods";
import { BUILTINS } from "../../stdlib/builtins/registry";
import { PyDict, PyNamespace, PyTuple, type PyValue } from "../../stdlib/values/value";
import type { Code, CompileFn, EvalContext, Frame } from "./context";
import { nameNotDefined } from "./names";
import { type CompileScope, frameAt, readSlot } from "./scope";

type Kwargs = ReadonlyMap<string, PyValue> | null;
type ArgsCode = (ctx: EvalContext, frame: Frame | null) => PyValue[];
type KwargsCode = (ctx: EvalContext, frame: Frame | null) => Kwargs;

function compileArgs(args: readonly Expr[], compile: CompileFn, scope: CompileScope | null): ArgsCode {
  const codes = args.map((a) => compile(a, scope));
  const n = codes.length;
  if (n === 0) return () => [];
  if (n === 1) {
    const a0 = codes[0]!;
    return (ctx, frame) => [a0(ctx, frame)];
  }
  return (ctx, frame) => {
    const out = new Array<PyValue>(n);
    for (let i = 0; i < n; i++) out[i] = codes[i]!(ctx, frame);
    return out;
  };
}

function compileKwargs(
  keywords: readonly Keyword[],
  compile: CompileFn,
  scope: CompileScope | null,
): KwargsCode {
  if (keywords.length === 0) return () => null;
  const names = keywords.map((k) => k.name);
  const codes = keywords.map((k) => compile(k.value, scope));
  return (ctx, frame) => {
    const map = new Map<string, PyValue>();
    for (let i = 0; i < codes.length; i++) map.set(names[i]!, codes[i]!(ctx, frame));
    return map;
  };
}

/** `x.a.b.c` (not called): a left-nested chain, evaluated in a loop (attributes add no depth). */
export function compileAttribute(node: Attribute, compile: CompileFn, scope: CompileScope | null): Code {
  const attrs: string[] = [];
  let base: Expr = node;
  while (base.kind === "Attribute") {
    attrs.push(base.attr);
    base = base.value;
  }
  attrs.reverse();
  const obj = compile(base, scope);
  const n = attrs.length;
  if (n === 1) {
    const attr = attrs[0]!;
    return (ctx, frame) => {
      ctx.env.budget.charge(1);
      return getAttribute(obj(ctx, frame), attr);
    };
  }
  return (ctx, frame) => {
    ctx.env.budget.charge(n);
    let v = obj(ctx, frame);
    for (let i = 0; i < n; i++) v = getAttribute(v, attrs[i]!);
    return v;
  };
}

/**
 * Whether `x.name(...)` is a direct method call on `x` (docs/reference/language.md §10.8.9 first two rules). When it is not,
 * `x.name` is looked up *before* the arguments are evaluated, as Python does
 * (`None.foo(1/0)` raises AttributeError, not ZeroDivisionError).
 */
function methodDispatch(name: string): (obj: PyValue) => boolean {
  const onStr = METHODS.has(`str.${name}`);
  const onList = METHODS.has(`list.${name}`);
  const onTuple = METHODS.has(`tuple.${name}`);
  const onDict = METHODS.has(`dict.${name}`);
  return (obj) => {
    if (typeof obj === "string") return onStr;
    if (Array.isArray(obj)) return onList;
    if (obj instanceof PyTuple) return onTuple;
    if (obj instanceof PyDict || obj instanceof PyNamespace) return onDict;
    return false;
  };
}

function compileMethodCall(
  node: Call,
  func: Attribute,
  compile: CompileFn,
  scope: CompileScope | null,
): Code {
  const obj = compile(func.value, scope);
  const name = func.attr;
  const args = compileArgs(node.args, compile, scope);
  const kwargs = compileKwargs(node.keywords, compile, scope);
  const isMethod = methodDispatch(name);
  return (ctx, frame) => {
    ctx.env.budget.charge(2); // the Call and its Attribute callee
    const receiver = obj(ctx, frame);
    if (isMethod(receiver)) {
      return callMethod(receiver, name, args(ctx, frame), kwargs(ctx, frame), ctx.env);
    }
    const fn = getAttribute(receiver, name);
    return callValue(fn, args(ctx, frame), kwargs(ctx, frame), ctx.env);
  };
}

/** `f(args)` with a name: a comprehension variable's value, else a position name, else the builtin. */
function compileNameCall(node: Call, id: string, compile: CompileFn, scope: CompileScope | null): Code {
  const args = compileArgs(node.args, compile, scope);
  const kwargs = compileKwargs(node.keywords, compile, scope);
  const loc = scope?.resolve(id) ?? null;
  if (loc !== null) {
    const { depth, slot } = loc;
    return (ctx, frame) => {
      ctx.env.budget.charge(2);
      const fn = readSlot(frameAt(frame, depth), slot, id, depth);
      return callValue(fn, args(ctx, frame), kwargs(ctx, frame), ctx.env);
    };
  }
  const isBuiltin = BUILTINS.has(id);
  return (ctx, frame) => {
    ctx.env.budget.charge(2);
    const fn = ctx.names.get(id);
    if (fn !== undefined) return callValue(fn, args(ctx, frame), kwargs(ctx, frame), ctx.env);
    if (!isBuiltin) throw nameNotDefined(id);
    return callBuiltin(id, args(ctx, frame), kwargs(ctx, frame), ctx.env);
  };
}

export function compileCall(node: Call, compile: CompileFn, scope: CompileScope | null): Code {
  const func = node.func;
  if (func.kind === "Attribute") return compileMethodCall(node, func, compile, scope);
  if (func.kind === "Name") return compileNameCall(node, func.id, compile, scope);
  const callee = compile(func, scope);
  const args = compileArgs(node.args, compile, scope);
  const kwargs = compileKwargs(node.keywords, compile, scope);
  return (ctx, frame) => {
    ctx.env.budget.charge(1);
    const fn = callee(ctx, frame);
    return callValue(fn, args(ctx, frame), kwargs(ctx, frame), ctx.env);
  };
}
