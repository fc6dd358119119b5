// Name lookup (docs/reference/language.md §10.6): comprehension variables (innermost first), then the position
// names of the context, then builtins. Builtins have no first-class value: a builtin name is only
// meaningful as a callee (calls.ts), so reading one as a value is an undefined name.
import { PyError } from "../../stdlib/values/errors";
import type { Code } from "./context";
import { type CompileScope, frameAt, readSlot } from "./scope";

export function nameNotDefined(id: string): PyError {
  return new PyError("NameError", `name '${id}' is not defined`);
}

export function compileName(id: string, scope: CompileScope | null): Code {
  const loc = scope?.resolve(id) ?? null;
  if (loc !== null) {
    const { depth, slot } = loc;
    if (depth === 0) {
      return (ctx, frame) => {
        ctx.env.budget.charge(1);
        return readSlot(frame!, slot, id, 0);
      };
    }
    return (ctx, frame) => {
      ctx.env.budget.charge(1);
      return readSlot(frameAt(frame, depth), slot, id, depth);
    };
  }
  return (ctx) => {
    ctx.env.budget.charge(1);
    const v = ctx.names.get(id);
    if (v === undefined) throw nameNotDefined(id);
    return v;
  };
}
