// The static typing rule of a builtin or method: given argument types, the result type or the
// reason the call certainly fails (docs/reference/language.md §10.12.3). Owned by stdlib/types; used by the
// builtin registry (stdlib/builtins) and the expression checker (checker/expr).
import type { Type } from "./type";

export type TypeRuleResult =
  | { readonly ok: true; readonly type: Type }
  /** `message` is the Python error text (without the " (this always fails at run time)" tail). */
  | {
      readonly ok: false;
      readonly code: "EXPR-TYPE" | "EXPR-ARITY";
      readonly message: string;
      /** Index of the offending positional argument, or the keyword name, when one is to blame. */
      readonly arg?: number | string;
      /**
       * The call fails only when its iterable argument has at least this many elements (join and
       * sum: 1; sorted, min and max compare two elements: 2). Absent: it always fails.
       */
      readonly failsFrom?: 1 | 2;
    };

export type BuiltinTypeRule = (args: readonly Type[], keywords: ReadonlyMap<string, Type>) => TypeRuleResult;

export type MethodTypeRule = (
  receiver: Type,
  args: readonly Type[],
  keywords: ReadonlyMap<string, Type>,
) => TypeRuleResult;
