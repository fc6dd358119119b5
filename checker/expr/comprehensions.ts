// List comprehensions and generator expressions (docs/reference/language.md §10.8.10): each comprehension has
// its own lexical scope; the first iterable is evaluated in the enclosing scope, everything else
// inside; targets unpack element types.
import type { GeneratorExp, ListComp, Target } from "../../grammar/ast";
import { iterationRule, unpackRule } from "../../stdlib/types/iterate";
import { ANY, type Type } from "../../stdlib/types/type";
import type { Checker } from "./checker";
import { isDunder, Scope } from "./scope";

function bindTarget(c: Checker, target: Target, t: Type, scope: Scope): void {
  if (target.kind === "Name") {
    if (isDunder(target.id)) c.dunder(target);
    scope.vars.set(target.id, t);
    c.record(target, t);
    return;
  }
  const r = unpackRule(t, target.elts.length);
  if (!r.ok) c.typeError(r.message, target);
  target.elts.forEach((elt, i) => {
    bindTarget(c, elt, r.ok ? (r.types[i] ?? ANY) : ANY, scope);
  });
}

export function visitComprehension(c: Checker, e: ListComp | GeneratorExp, outer: Scope | null): Type {
  const inner = new Scope(outer);
  e.generators.forEach((g, i) => {
    const iterType = c.visit(g.iter, i === 0 ? outer : inner);
    const r = iterationRule(iterType);
    if (!r.ok) c.typeError(r.message, g.iter);
    bindTarget(c, g.target, r.ok ? r.type : ANY, inner);
    for (const cond of g.ifs) c.visit(cond, inner);
  });
  const elem = c.visit(e.elt, inner);
  return e.kind === "ListComp" ? { k: "list", elem } : { k: "generator", elem };
}
