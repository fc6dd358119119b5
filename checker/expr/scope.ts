// Lexical scopes of comprehension variables (docs/reference/language.md §10.6, docs/reference/language.md §10.8.10) and name classification.
import { builtinTypeRules } from "../../stdlib/types/builtin-rules";
import type { Type } from "../../stdlib/types/type";

/** One comprehension's variables; lookups go outwards through the parents. */
export class Scope {
  readonly vars = new Map<string, Type>();
  constructor(readonly parent: Scope | null) {}

  lookup(name: string): Type | undefined {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      const t = s.vars.get(name);
      if (t !== undefined) return t;
    }
    return undefined;
  }

  /** Every visible variable name, innermost scope first. */
  names(): string[] {
    const out: string[] = [];
    for (let s: Scope | null = this; s !== null; s = s.parent) out.push(...s.vars.keys());
    return out;
  }
}

/** The builtin names, in catalogue order (did-you-mean candidates). */
export const BUILTIN_NAMES: readonly string[] = Object.keys(builtinTypeRules);

export function isBuiltin(name: string): boolean {
  return Object.hasOwn(builtinTypeRules, name);
}

/** Names, attributes and keyword names containing `__` are rejected (EXPR-DUNDER). */
export function isDunder(name: string): boolean {
  return name.includes("__");
}
