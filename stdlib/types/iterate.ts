// Element types of iteration (docs/reference/language.md §10.8.10): what `for x in t` binds.
import { fail, lift1, ok } from "./outcome";
import { memberPyName } from "./print";
import type { TypeRuleResult } from "./rule";
import { ANY, STR, type Type } from "./type";
import { union } from "./union";

/** The element type of one member, or null when the member is not iterable. */
function memberElement(m: Type): Type | null {
  switch (m.k) {
    case "str":
      return STR;
    case "list":
    case "tupleOf":
    case "generator":
      return m.elem;
    case "tuple":
      return m.elems.length === 0 ? ANY : union(...m.elems);
    case "dict":
      return m.key;
    case "record":
      return STR;
    case "ns":
      return elementType(m.of);
    case "keys":
      return m.key;
    case "values":
      return m.value;
    case "items":
      return { k: "tuple", elems: [m.key, m.value] };
    default:
      return null;
  }
}

/** Iterating `t`: the element type, or `'<type>' object is not iterable` when no member is iterable. */
export function iterationRule(t: Type): TypeRuleResult {
  return lift1(t, (m) => {
    const e = memberElement(m);
    return e === null ? fail(`'${memberPyName(m)}' object is not iterable`) : ok(e);
  });
}

/** The element type of `t`, or null when `t` is certainly not iterable. */
export function elementType(t: Type): Type | null {
  const r = iterationRule(t);
  return r.ok ? r.type : null;
}

/** The tuple-unpacking of one element member into `n` targets (docs/reference/language.md §10.8.10). */
function unpackMember(m: Type, n: number): { ok: true; types: Type[] } | { ok: false; message: string } {
  if (m.k === "any") return { ok: true, types: Array.from({ length: n }, () => ANY) };
  if (m.k === "tuple") {
    if (m.elems.length > n) return { ok: false, message: `too many values to unpack (expected ${n})` };
    if (m.elems.length < n) {
      return { ok: false, message: `not enough values to unpack (expected ${n}, got ${m.elems.length})` };
    }
    return { ok: true, types: [...m.elems] };
  }
  const e = memberElement(m);
  if (e === null) return { ok: false, message: `cannot unpack non-iterable ${memberPyName(m)} object` };
  return { ok: true, types: Array.from({ length: n }, () => e) };
}

/** Types bound to `n` unpacking targets from elements of type `elem`, or the certain failure. */
export function unpackRule(
  elem: Type,
  n: number,
): { ok: true; types: Type[] } | { ok: false; message: string } {
  let firstFailure: { ok: false; message: string } | null = null;
  const columns: Type[][] = Array.from({ length: n }, () => []);
  for (const m of elem.k === "union" ? elem.members : [elem]) {
    const r = unpackMember(m, n);
    if (!r.ok) {
      firstFailure ??= r;
      continue;
    }
    r.types.forEach((t, i) => {
      columns[i]?.push(t);
    });
  }
  if ((columns[0]?.length ?? 0) === 0 && firstFailure !== null && n > 0) return firstFailure;
  return { ok: true, types: columns.map((c) => (c.length === 0 ? ANY : union(...c))) };
}
