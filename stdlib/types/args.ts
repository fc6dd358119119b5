// Argument helpers for the builtin and method typing rules. Rules run after the arity check, but
// must not crash on a wrong call shape: a missing argument is simply `undefined`.
import { isIntLike } from "./kinds";
import { type Failure, requireArg } from "./outcome";
import { memberPyName } from "./print";
import type { Type } from "./type";

export const tname = (m: Type): string => memberPyName(m) ?? "object";

/** The argument at `index`, or the keyword `name` when it may also be given by keyword. */
export function argAt(
  args: readonly Type[],
  keywords: ReadonlyMap<string, Type>,
  index: number,
  name?: string,
): { type: Type; at: number | string } | undefined {
  const positional = args[index];
  if (positional !== undefined) return { type: positional, at: index };
  const kw = name === undefined ? undefined : keywords.get(name);
  return kw === undefined || name === undefined ? undefined : { type: kw, at: name };
}

/** An integer-like argument (`reverse`, `count`, `maxsplit`, `ndigits`; None allowed when `noneOk`). */
export function requireIndex(
  arg: { type: Type; at: number | string } | undefined,
  noneOk: boolean,
): Failure | null {
  if (arg === undefined) return null;
  return requireArg(
    arg.type,
    (m) => isIntLike(m) || (noneOk && m.k === "none"),
    (m) => `'${tname(m)}' object cannot be interpreted as an integer`,
    arg.at,
  );
}

/** Optional slice bounds of str.find/count/startswith (`None` allowed). */
export function requireSliceBound(
  arg: { type: Type; at: number | string } | undefined,
  noneOk = true,
): Failure | null {
  if (arg === undefined) return null;
  const message = noneOk
    ? "slice indices must be integers or None or have an __index__ method"
    : "slice indices must be integers or have an __index__ method";
  return requireArg(
    arg.type,
    (m) => isIntLike(m) || m.k === "none",
    () => message,
    arg.at,
  );
}

export function requireStr(
  arg: { type: Type; at: number | string } | undefined,
  message: (m: Type) => string,
  noneOk = false,
): Failure | null {
  if (arg === undefined) return null;
  return requireArg(arg.type, (m) => m.k === "str" || (noneOk && m.k === "none"), message, arg.at);
}
