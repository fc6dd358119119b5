// Unary, binary and boolean operators, conditionals and comparisons (docs/reference/language.md §10.8.2–docs/reference/language.md §10.8.7).
import type { BinOp, BoolOp, Compare, Expr, IfExp, UnaryOp } from "../../grammar/ast";
import { binaryType, compareType, neverEqual, unaryType } from "../../stdlib/types/operators";
import { typeToString } from "../../stdlib/types/print";
import { ANY, BOOL, type Type } from "../../stdlib/types/type";
import { union } from "../../stdlib/types/union";
import { MESSAGES } from "../messages";
import type { Checker } from "./checker";
import { checkEnumComparison, checkEnumMembership } from "./enums";
import type { Scope } from "./scope";

export function visitUnaryOp(c: Checker, e: UnaryOp, scope: Scope | null): Type {
  const r = unaryType(e.op, c.visit(e.operand, scope));
  if (r.ok) return r.type;
  c.typeError(r.message, e);
  return ANY;
}

/** `a + b - c …` is a left-deep chain of any length: walk its spine without recursion. */
export function visitBinOp(c: Checker, e: BinOp, scope: Scope | null): Type {
  const spine: BinOp[] = [];
  let base: Expr = e;
  while (base.kind === "BinOp") {
    spine.push(base);
    base = base.left;
  }
  let t = c.visit(base, scope);
  for (let i = spine.length - 1; i >= 0; i--) {
    const node = spine[i] as BinOp;
    const r = binaryType(node.op, t, c.visit(node.right, scope));
    if (!r.ok) c.typeError(r.message, node);
    t = r.ok ? r.type : ANY;
    c.record(node, t);
  }
  return t;
}

/** `a or b` / `a and b` return one of their operands. */
export function visitBoolOp(c: Checker, e: BoolOp, scope: Scope | null): Type {
  return union(...e.values.map((v) => c.visit(v, scope)));
}

export function visitIfExp(c: Checker, e: IfExp, scope: Scope | null): Type {
  c.visit(e.test, scope);
  return union(c.visit(e.body, scope), c.visit(e.orelse, scope));
}

/** `is` / `is not` with a literal other than None, True, False (EXPR-IS-LITERAL). */
function isLiteral(e: Expr): boolean {
  return e.kind === "Constant" && e.value !== null && typeof e.value !== "boolean";
}

export function visitCompare(c: Checker, e: Compare, scope: Scope | null): Type {
  const operands: Expr[] = [e.left, ...e.comparators];
  const types = operands.map((o) => c.visit(o, scope));
  e.ops.forEach(({ op, span }, i) => {
    const left = operands[i] as Expr;
    const right = operands[i + 1] as Expr;
    const lt = types[i] as Type;
    const rt = types[i + 1] as Type;
    const pair = { start: left.start, end: right.end };
    const r = compareType(op, lt, rt);
    if (!r.ok) {
      c.typeError(r.message, pair);
      return;
    }
    if (op === "is" || op === "is not") {
      if (isLiteral(left) || isLiteral(right)) {
        const fix = {
          description: MESSAGES["EXPR-IS-LITERAL"].fixDescription(op),
          edits: [{ ...span, newText: op === "is" ? "==" : "!=" }],
        };
        c.report("EXPR-IS-LITERAL", MESSAGES["EXPR-IS-LITERAL"].message(op), span, { fix });
      }
    } else if (op === "==" || op === "!=") {
      const enumError = checkEnumComparison(c, left, lt, right) || checkEnumComparison(c, right, rt, left);
      if (!enumError && neverEqual(lt, rt)) {
        const message = MESSAGES["EXPR-COMPARISON-CONSTANT"].message(op, typeToString(lt), typeToString(rt));
        c.report("EXPR-COMPARISON-CONSTANT", message, pair);
      }
    } else if (op === "in" || op === "not in") {
      checkEnumMembership(c, left, lt, right);
    }
  });
  return BOOL;
}
