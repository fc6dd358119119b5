// Constants and displays: lists, tuples, dicts (docs/reference/language.md §10.3). Dict displays evaluate key
// then value, pair by pair, and build the dict once every pair is evaluated (as CPython does).
import type { Constant, Dict, List, Tuple } from "../../grammar/ast";
import { makeDict } from "../../stdlib/values/dict";
import { PyTuple, type PyValue } from "../../stdlib/values/value";
import type { Code, CompileFn } from "./context";
import type { CompileScope } from "./scope";

export function compileConstant(node: Constant): Code {
  const value: PyValue = node.value;
  return (ctx) => {
    ctx.env.budget.charge(1);
    return value;
  };
}

function compileItems(
  elts: readonly Code[],
): (ctx: Parameters<Code>[0], frame: Parameters<Code>[1]) => PyValue[] {
  const n = elts.length;
  return (ctx, frame) => {
    ctx.env.budget.charge(1);
    const out = new Array<PyValue>(n);
    for (let i = 0; i < n; i++) out[i] = elts[i]!(ctx, frame);
    return out;
  };
}

export function compileList(node: List, compile: CompileFn, scope: CompileScope | null): Code {
  return compileItems(node.elts.map((e) => compile(e, scope)));
}

export function compileTuple(node: Tuple, compile: CompileFn, scope: CompileScope | null): Code {
  const items = compileItems(node.elts.map((e) => compile(e, scope)));
  return (ctx, frame) => new PyTuple(items(ctx, frame));
}

export function compileDict(node: Dict, compile: CompileFn, scope: CompileScope | null): Code {
  const keys = node.keys.map((k) => compile(k, scope));
  const values = node.values.map((v) => compile(v, scope));
  const n = keys.length;
  return (ctx, frame) => {
    ctx.env.budget.charge(1);
    const entries = new Array<readonly [PyValue, PyValue]>(n);
    for (let i = 0; i < n; i++) {
      const k = keys[i]!(ctx, frame);
      entries[i] = [k, values[i]!(ctx, frame)];
    }
    return makeDict(entries);
  };
}
