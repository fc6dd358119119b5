// Typing of subscripts and slices (docs/reference/language.md §10.8.8).
import { type AccessResult, liftAccess } from "./access";
import { isIntLike, isTuple, isUnhashable, unhashablePart } from "./kinds";
import { fail, ok, requireArg } from "./outcome";
import { memberPyName } from "./print";
import { ANY, STR, type Type } from "./type";
import { members, union } from "./union";

const name = (m: Type): string => memberPyName(m) ?? "object";

/** The index of a subscript: a slice, or an expression's type and its literal value if constant. */
export type IndexInfo =
  | { readonly slice: true; readonly bounds: readonly Type[] }
  | { readonly slice: false; readonly type: Type; readonly literal?: string | number };

const SLICE_BOUND = "slice indices must be integers or None or have an __index__ method";

function checkBounds(bounds: readonly Type[]): AccessResult | null {
  for (const b of bounds) {
    const f = requireArg(
      b,
      (m) => isIntLike(m) || m.k === "none",
      () => SLICE_BOUND,
    );
    if (f !== null) return f;
  }
  return null;
}

/** Indexing a sequence member (list, tuple, str) with an integer or slice. */
function sequence(m: Type, index: IndexInfo): AccessResult {
  if (index.slice) {
    const bad = checkBounds(index.bounds);
    if (bad !== null) return bad;
    if (m.k === "str") return ok(STR);
    if (m.k === "tuple") return ok({ k: "tupleOf", elem: m.elems.length === 0 ? ANY : union(...m.elems) });
    return ok(m);
  }
  const intIndex = index.type.k === "any" || members(index.type).some(isIntLike);
  if (!intIndex) {
    const t = name(members(index.type)[0] as Type);
    if (m.k === "str") return fail(`string indices must be integers, not '${t}'`);
    return fail(`${name(m)} indices must be integers or slices, not ${t}`);
  }
  if (m.k === "str") return ok(STR);
  if (m.k === "list" || m.k === "tupleOf") return ok(m.elem);
  if (m.k === "tuple") {
    const lit = index.literal;
    if (typeof lit === "number" && Number.isInteger(lit)) {
      const elem = m.elems[lit < 0 ? m.elems.length + lit : lit];
      if (elem !== undefined) return ok(elem);
    }
    return ok(m.elems.length === 0 ? ANY : union(...m.elems));
  }
  return ok(ANY);
}

/** Indexing a mapping member (dict, record, namespace). */
function mapping(m: Type, index: IndexInfo): AccessResult {
  if (m.k === "ns") return liftAccess(m.of, (inner) => memberSubscript(inner, index));
  if (index.slice) return fail("unhashable type: 'slice'");
  if (index.type.k !== "any" && members(index.type).every(isUnhashable)) {
    return fail(`unhashable type: '${name(unhashablePart(members(index.type)[0] as Type))}'`);
  }
  if (m.k === "dict") return ok(m.value);
  if (m.k === "record" && typeof index.literal === "string") {
    const field = m.record.fields.get(index.literal);
    if (field === undefined)
      return { ok: false, code: "EXPR-UNKNOWN-FIELD", record: m.record, field: index.literal };
    return ok(field.type);
  }
  return ok(ANY);
}

function memberSubscript(m: Type, index: IndexInfo): AccessResult {
  if (m.k === "any") return ok(ANY);
  if (m.k === "str" || m.k === "list" || isTuple(m)) return sequence(m, index);
  if (m.k === "dict" || m.k === "record" || m.k === "ns") return mapping(m, index);
  return fail(`'${name(m)}' object is not subscriptable`);
}

/** `obj[index]` / `obj[a:b:c]`. */
export function subscriptType(obj: Type, index: IndexInfo): AccessResult {
  return liftAccess(obj, (m) => memberSubscript(m, index));
}
