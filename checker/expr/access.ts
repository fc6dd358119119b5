// Attribute access (not called) and subscripts (docs/reference/language.md §10.8.8, docs/reference/language.md §10.8.9).
import type { Attribute, Expr, Subscript } from "../../grammar/ast";
import { attributeType } from "../../stdlib/types/attribute";
import { memberPyName } from "../../stdlib/types/print";
import { type IndexInfo, subscriptType } from "../../stdlib/types/subscript";
import { ANY, type Type } from "../../stdlib/types/type";
import { MESSAGES } from "../messages";
import type { Checker } from "./checker";
import { isDunder, type Scope } from "./scope";

/** `a.b.c…` is a left-deep chain of any length: walk its spine without recursion. */
export function visitAttribute(c: Checker, e: Attribute, scope: Scope | null): Type {
  const spine: Attribute[] = [];
  let base: Expr = e;
  while (base.kind === "Attribute") {
    spine.push(base);
    base = base.value;
  }
  let t = c.visit(base, scope);
  for (let i = spine.length - 1; i >= 0; i--) {
    const node = spine[i] as Attribute;
    t = readAttribute(c, node, t);
    c.record(node, t);
  }
  return t;
}

function readAttribute(c: Checker, node: Attribute, objType: Type): Type {
  if (isDunder(node.attr)) {
    c.dunder(node.attrSpan);
    return ANY;
  }
  const r = attributeType(objType, node.attr);
  if (!r.ok) {
    c.accessFailure(r, { name: node.attrSpan, op: node.attrSpan });
    return ANY;
  }
  if (r.type.k === "method" && r.type.receiver !== undefined) {
    const receiver = memberPyName(r.type.receiver) ?? "object";
    c.report(
      "EXPR-METHOD-NOT-CALLED",
      MESSAGES["EXPR-METHOD-NOT-CALLED"].message(receiver, node.attr),
      node.attrSpan,
    );
  }
  return r.type;
}

/** The value of a constant index: a string, or an integer (also written `-1`). */
function literalIndex(e: Expr): string | number | undefined {
  if (e.kind === "Constant") {
    if (typeof e.value === "string") return e.value;
    if (typeof e.value === "number") return e.value;
    return undefined;
  }
  if (
    e.kind === "UnaryOp" &&
    e.op === "-" &&
    e.operand.kind === "Constant" &&
    typeof e.operand.value === "number"
  ) {
    return -e.operand.value;
  }
  return undefined;
}

export function visitSubscript(c: Checker, e: Subscript, scope: Scope | null): Type {
  const objType = c.visit(e.value, scope);
  let info: IndexInfo;
  if (e.index.kind === "Slice") {
    const bounds: Type[] = [];
    for (const b of [e.index.lower, e.index.upper, e.index.step])
      if (b !== null) bounds.push(c.visit(b, scope));
    info = { slice: true, bounds };
  } else {
    const type = c.visit(e.index, scope);
    const literal = literalIndex(e.index);
    info = literal === undefined ? { slice: false, type } : { slice: false, type, literal };
  }
  const r = subscriptType(objType, info);
  if (!r.ok) {
    c.accessFailure(r, { name: e.index, op: e });
    return ANY;
  }
  return r.type;
}
