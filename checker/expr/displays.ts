// List, tuple and dict displays (docs/reference/language.md §10.3).
import type { Dict, List, Tuple } from "../../grammar/ast";
import { isUnhashable, unhashablePart } from "../../stdlib/types/kinds";
import { memberPyName } from "../../stdlib/types/print";
import { ANY, type Type } from "../../stdlib/types/type";
import { members, union } from "../../stdlib/types/union";
import type { Checker } from "./checker";
import type { Scope } from "./scope";

export function visitList(c: Checker, e: List, scope: Scope | null): Type {
  const elems = e.elts.map((x) => c.visit(x, scope));
  return { k: "list", elem: elems.length === 0 ? ANY : union(...elems) };
}

export function visitTuple(c: Checker, e: Tuple, scope: Scope | null): Type {
  return { k: "tuple", elems: e.elts.map((x) => c.visit(x, scope)) };
}

export function visitDict(c: Checker, e: Dict, scope: Scope | null): Type {
  const keys: Type[] = [];
  const values: Type[] = [];
  e.keys.forEach((k, i) => {
    const kt = c.visit(k, scope);
    if (kt.k !== "any" && members(kt).every(isUnhashable)) {
      const part = unhashablePart(members(kt)[0] as Type);
      c.typeError(`unhashable type: '${memberPyName(part) ?? "object"}'`, k);
    }
    keys.push(kt);
    const v = e.values[i];
    if (v !== undefined) values.push(c.visit(v, scope));
  });
  if (keys.length === 0) return { k: "dict", key: ANY, value: ANY };
  return { k: "dict", key: union(...keys), value: union(...values) };
}
