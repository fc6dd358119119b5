// Canonical source text for an AST: minimal parentheses, Python reprs for string and float
// constants. `parseExpression(printExpr(e))` gives back `e` (offsets aside). Left-nested operator
// chains and attribute chains are printed with loops, so long chains do not recurse deeply.

import { floatRepr, strRepr } from "../stdlib/values/repr";
import type { Comprehension, Constant, Expr, Slice, Target } from "./ast";

// Binding strength of each form (docs/reference/language.md §10.4): a child printed where a stronger form is required gets
// parentheses.
const CONDITIONAL = 1;
const OR = 2;
const AND = 3;
const NOT = 4;
const COMPARE = 5;
const SUM = 6;
const TERM = 7;
const UNARY = 8;
const PRIMARY = 9;
const ATOM = 10;

function precedence(e: Expr): number {
  switch (e.kind) {
    case "IfExp":
      return CONDITIONAL;
    case "BoolOp":
      return e.op === "or" ? OR : AND;
    case "UnaryOp":
      return e.op === "not" ? NOT : UNARY;
    case "Compare":
      return COMPARE;
    case "BinOp":
      return e.op === "+" || e.op === "-" ? SUM : TERM;
    case "Attribute":
    case "Call":
    case "Subscript":
      return PRIMARY;
    default:
      return ATOM;
  }
}

function constantText(c: Constant): string {
  const v = c.value;
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return strRepr(v);
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  // A float literal too large for a double reads as inf; 1e309 is the shortest literal for it.
  if (v.v === Number.POSITIVE_INFINITY) return "1e309";
  return floatRepr(v.v);
}

function targetText(t: Target, nested: boolean): string {
  if (t.kind === "Name") return t.id;
  const parts = t.elts.map((e) => targetText(e, true));
  if (parts.length === 1) return `(${parts[0]},)`;
  return nested ? `(${parts.join(", ")})` : parts.join(", ");
}

function comprehensionText(generators: readonly Comprehension[]): string {
  let out = "";
  for (const g of generators) {
    out += ` for ${targetText(g.target, false)} in ${print(g.iter, OR)}`;
    for (const cond of g.ifs) out += ` if ${print(cond, OR)}`;
  }
  return out;
}

function sliceText(s: Slice): string {
  const lower = s.lower === null ? "" : print(s.lower, CONDITIONAL);
  const upper = s.upper === null ? "" : print(s.upper, CONDITIONAL);
  return s.step === null ? `${lower}:${upper}` : `${lower}:${upper}:${print(s.step, CONDITIONAL)}`;
}

function callArgsText(e: Expr & { kind: "Call" }): string {
  const only = e.args[0];
  if (e.args.length === 1 && e.keywords.length === 0 && only?.kind === "GeneratorExp") {
    return print(only.elt, CONDITIONAL) + comprehensionText(only.generators);
  }
  const parts = e.args.map((a) => print(a, CONDITIONAL));
  for (const k of e.keywords) parts.push(`${k.name}=${print(k.value, CONDITIONAL)}`);
  return parts.join(", ");
}

/**
 * Whether an atom needs parentheses before its first trailer, to be read back the same way:
 * `(1).real` (`1.real` is a malformed number); `($.input.a).b` (else `.b` joins the path) unless
 * `.b` is called; `($.input.a)()` (else `.a(` is a method call on `$.input`).
 */
function needsParentheses(base: Expr, first: Expr | undefined, second: Expr | undefined): boolean {
  if (first === undefined) return false;
  if (base.kind === "Constant") {
    const v = base.value;
    return first.kind === "Attribute" && v !== null && typeof v !== "string" && typeof v !== "boolean";
  }
  if (base.kind !== "Path") return false;
  if (first.kind === "Call") return true;
  return first.kind === "Attribute" && second?.kind !== "Call";
}

/** `value.attr`, `value(args)`, `value[index]` chains, printed base first without recursion. */
function primaryText(e: Expr): string {
  const trailers: Expr[] = [];
  let base = e;
  while (base.kind === "Attribute" || base.kind === "Call" || base.kind === "Subscript") {
    trailers.push(base);
    base = base.kind === "Call" ? base.func : base.value;
  }
  let out = print(base, PRIMARY);
  if (needsParentheses(base, trailers[trailers.length - 1], trailers[trailers.length - 2])) out = `(${out})`;
  for (let i = trailers.length - 1; i >= 0; i--) {
    const t = trailers[i]!;
    if (t.kind === "Attribute") out += `.${t.attr}`;
    else if (t.kind === "Call") out += `(${callArgsText(t)})`;
    else if (t.kind === "Subscript") {
      out += `[${t.index.kind === "Slice" ? sliceText(t.index) : print(t.index, CONDITIONAL)}]`;
    }
  }
  return out;
}

/** A left-nested run of binary operators, printed innermost first without recursion. */
function binOpText(e: Expr & { kind: "BinOp" }): string {
  const spine = [e];
  let cur = e;
  while (cur.left.kind === "BinOp" && precedence(cur.left) >= precedence(cur)) {
    cur = cur.left;
    spine.push(cur);
  }
  let out = print(cur.left, precedence(cur));
  for (let i = spine.length - 1; i >= 0; i--) {
    const node = spine[i]!;
    out += ` ${node.op} ${print(node.right, precedence(node) + 1)}`;
  }
  return out;
}

function printBare(e: Expr): string {
  switch (e.kind) {
    case "Constant":
      return constantText(e);
    case "Name":
      return e.id;
    case "Path":
      return e.text;
    case "Error":
      return "<error>";
    case "Attribute":
    case "Call":
    case "Subscript":
      return primaryText(e);
    case "UnaryOp":
      return e.op === "not" ? `not ${print(e.operand, NOT)}` : `${e.op}${print(e.operand, UNARY)}`;
    case "BinOp":
      return binOpText(e);
    case "BoolOp":
      return e.values.map((v) => print(v, precedence(e) + 1)).join(` ${e.op} `);
    case "Compare": {
      let out = print(e.left, COMPARE + 1);
      e.ops.forEach((op, i) => {
        out += ` ${op.op} ${print(e.comparators[i]!, COMPARE + 1)}`;
      });
      return out;
    }
    case "IfExp":
      return `${print(e.body, OR)} if ${print(e.test, OR)} else ${print(e.orelse, CONDITIONAL)}`;
    case "List":
      return `[${e.elts.map((x) => print(x, CONDITIONAL)).join(", ")}]`;
    case "Tuple":
      if (e.elts.length === 1) return `(${print(e.elts[0]!, CONDITIONAL)},)`;
      return `(${e.elts.map((x) => print(x, CONDITIONAL)).join(", ")})`;
    case "Dict":
      return `{${e.keys.map((k, i) => `${print(k, CONDITIONAL)}: ${print(e.values[i]!, CONDITIONAL)}`).join(", ")}}`;
    case "ListComp":
      return `[${print(e.elt, CONDITIONAL)}${comprehensionText(e.generators)}]`;
    case "GeneratorExp":
      return `(${print(e.elt, CONDITIONAL)}${comprehensionText(e.generators)})`;
  }
}

/** Prints `e` where a form binding at least as strongly as `min` is required. */
function print(e: Expr, min: number): string {
  const text = printBare(e);
  return precedence(e) < min ? `(${text})` : text;
}

/** Canonical source text of an expression. */
export function printExpr(e: Expr): string {
  return print(e, CONDITIONAL);
}
