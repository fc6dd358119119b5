// Names and `$` paths (docs/reference/language.md §10.5, docs/reference/language.md §10.6).
import type { Name, Path } from "../../grammar/ast";
import { ANY, type Type } from "../../stdlib/types/type";
import { MESSAGES } from "../messages";
import type { Checker } from "./checker";
import { BUILTIN_NAMES, isBuiltin, isDunder, type Scope } from "./scope";

/** The type a name is bound to: comprehension variables, then position names. */
export function boundType(c: Checker, name: string, scope: Scope | null): Type | undefined {
  return scope?.lookup(name) ?? c.env.names.get(name);
}

/** Names in scope, innermost first, then builtins (did-you-mean candidates for names). */
function nameCandidates(c: Checker, scope: Scope | null): string[] {
  return [...(scope?.names() ?? []), ...c.env.names.keys(), ...BUILTIN_NAMES];
}

/** Reports a dunder name or a position name that is unavailable here; false when neither. */
export function reportDunderOrUnavailable(c: Checker, e: Name): boolean {
  if (isDunder(e.id)) {
    c.dunder(e);
    return true;
  }
  const reason = c.env.unavailable?.get(e.id);
  if (reason === undefined) return false;
  c.report("EXPR-NAME-UNAVAILABLE", MESSAGES["EXPR-NAME-UNAVAILABLE"].message(e.id, c.env.kind, reason), e);
  return true;
}

export function visitName(c: Checker, e: Name, scope: Scope | null): Type {
  if (!isDunder(e.id)) {
    const t = boundType(c, e.id, scope);
    if (t !== undefined) return t;
    if (isBuiltin(e.id) && !c.env.unavailable?.has(e.id)) {
      c.report("EXPR-TYPE", MESSAGES["EXPR-TYPE"].mustCall(e.id), e);
      return ANY;
    }
  }
  if (!reportDunderOrUnavailable(c, e)) {
    const message = MESSAGES["EXPR-UNKNOWN-NAME"].message(e.id);
    c.reportWithSuggestion("EXPR-UNKNOWN-NAME", message, e, e.id, nameCandidates(c, scope));
  }
  return ANY;
}

export function visitPath(c: Checker, e: Path): Type {
  if (c.env.statePath !== undefined) return c.env.statePath(e);
  if (e.ref === null) {
    c.report("SPEC-REF-MALFORMED", MESSAGES["SPEC-REF-MALFORMED"].message(e.text), e);
    return ANY;
  }
  return c.env.pathType?.(e.ref, e) ?? ANY;
}
