// EXPR-ENUM-VALUE (docs/reference/language.md §10.12.3): an enumeration-typed field compared with a literal
// outside its `values`, with `==`/`!=` or `in`/`not in` a list or tuple display.
import type { Expr } from "../../grammar/ast";
import type { Type } from "../../stdlib/types/type";
import { members } from "../../stdlib/types/union";
import { repr } from "../../stdlib/values/repr";
import { PyFloat, type PyValue } from "../../stdlib/values/value";
import { MESSAGES } from "../messages";
import type { Checker } from "./checker";

type Enumeration =
  | { readonly kind: "str"; readonly values: readonly string[] }
  | { readonly kind: "number"; readonly values: readonly number[] };

/** The value set of an enumeration type (`none` members ignored); null if `t` is not one. */
function enumerationOf(t: Type): Enumeration | null {
  const ms = members(t).filter((m) => m.k !== "none");
  if (ms.length === 0) return null;
  if (ms.every((m) => m.k === "str" && m.values !== undefined)) {
    return { kind: "str", values: ms.flatMap((m) => (m.k === "str" ? (m.values ?? []) : [])) };
  }
  if (ms.every((m) => (m.k === "int" || m.k === "float") && m.values !== undefined)) {
    const values: number[] = [];
    for (const m of ms)
      if (m.k === "int" || m.k === "float")
        for (const v of m.values ?? []) if (!values.includes(v)) values.push(v);
    return { kind: "number", values };
  }
  return null;
}

/** The field an expression reads: `.f`, `['f']`, `.get('f')` or a path's last segment. */
function fieldName(e: Expr): string | null {
  switch (e.kind) {
    case "Attribute":
      return e.attr;
    case "Subscript":
      return e.index.kind === "Constant" && typeof e.index.value === "string" ? e.index.value : null;
    case "Call": {
      const key = e.args[0];
      if (e.func.kind !== "Attribute" || e.func.attr !== "get" || key?.kind !== "Constant") return null;
      return typeof key.value === "string" ? key.value : null;
    }
    case "Path":
      // A property-state path (`$.flow.status`) has no input/output reference: its last segment.
      return e.ref === null ? (e.text.split(".").at(-1) ?? null) : (e.ref.fields.at(-1) ?? e.ref.name).name;
    default:
      return null;
  }
}

/** A literal's numeric value (booleans count as 0/1), or null when it is not a number. */
function numericValue(v: unknown): number | null {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof PyFloat) return v.v;
  return null;
}

function allowedRepr(en: Enumeration): string {
  const items: PyValue[] =
    en.kind === "str" ? [...en.values] : en.values.map((v) => (Number.isInteger(v) ? v : new PyFloat(v)));
  return repr(items);
}

/** Reports `literal` when it is outside the enumeration; true when reported. */
function checkLiteral(c: Checker, en: Enumeration, field: string, literal: Expr): boolean {
  if (literal.kind !== "Constant" || literal.value === null) return false;
  const v = literal.value;
  let outside: boolean;
  if (en.kind === "str") {
    if (typeof v !== "string") return false;
    outside = !en.values.includes(v);
  } else {
    const n = numericValue(v);
    if (n === null) return false;
    outside = !en.values.includes(n);
  }
  if (!outside) return false;
  c.report("EXPR-ENUM-VALUE", MESSAGES["EXPR-ENUM-VALUE"].message(repr(v), field, allowedRepr(en)), literal);
  return true;
}

/** `field == literal` (either order is handled by the caller). True when an error was reported. */
export function checkEnumComparison(c: Checker, side: Expr, sideType: Type, literal: Expr): boolean {
  const en = enumerationOf(sideType);
  const field = en === null ? null : fieldName(side);
  if (en === null || field === null) return false;
  return checkLiteral(c, en, field, literal);
}

/** `field in [literal, …]` / `field in (literal, …)`. */
export function checkEnumMembership(c: Checker, left: Expr, leftType: Type, container: Expr): void {
  if (container.kind !== "List" && container.kind !== "Tuple") return;
  const en = enumerationOf(leftType);
  const field = en === null ? null : fieldName(left);
  if (en === null || field === null) return;
  for (const elt of container.elts) checkLiteral(c, en, field, elt);
}
