// Typing rules of the arithmetic, unary and comparison operators (docs/reference/language.md §10.8.2–docs/reference/language.md §10.8.5).
// Messages are the exact Python TypeError texts; the checker adds the "always fails" tail.
import { isIntLike, isMapping, isNumber, isTuple, isUnhashable, unhashablePart } from "./kinds";
import { fail, lift1, lift2, ok } from "./outcome";
import { memberPyName } from "./print";
import type { TypeRuleResult } from "./rule";
import { ANY, BOOL, FLOAT, INT, STR, type Type } from "./type";
import { members, union } from "./union";

// The operator unions of grammar/ast.ts, redeclared: stdlib does not depend on grammar.
export type BinaryOperator = "+" | "-" | "*" | "/" | "//" | "%";
export type CompareOperator = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in" | "is" | "is not";

const name = (m: Type): string => memberPyName(m) ?? "object";

/** int for int/bool operands, float as soon as one is a float. */
function numeric(l: Type, r: Type): Type {
  return l.k === "float" || r.k === "float" ? FLOAT : INT;
}

function unsupported(op: string, l: Type, r: Type): TypeRuleResult {
  return fail(`unsupported operand type(s) for ${op}: '${name(l)}' and '${name(r)}'`);
}

/** Concatenation of two tuple members. */
function tupleConcat(l: Type, r: Type): Type {
  if (l.k === "tuple" && r.k === "tuple") return { k: "tuple", elems: [...l.elems, ...r.elems] };
  return { k: "tupleOf", elem: union(tupleElems(l), tupleElems(r)) };
}

function tupleElems(t: Type): Type {
  if (t.k === "tuple") return t.elems.length === 0 ? ANY : union(...t.elems);
  if (t.k === "tupleOf") return t.elem;
  return ANY;
}

function add(l: Type, r: Type): TypeRuleResult {
  if (isNumber(l) && isNumber(r)) return ok(numeric(l, r));
  if (l.k === "str")
    return r.k === "str" ? ok(STR) : fail(`can only concatenate str (not "${name(r)}") to str`);
  if (l.k === "list") {
    if (r.k === "list") return ok({ k: "list", elem: union(l.elem, r.elem) });
    return fail(`can only concatenate list (not "${name(r)}") to list`);
  }
  if (isTuple(l))
    return isTuple(r)
      ? ok(tupleConcat(l, r))
      : fail(`can only concatenate tuple (not "${name(r)}") to tuple`);
  return unsupported("+", l, r);
}

/** The result of repeating sequence member `s` (str, list or tuple). */
function repeated(s: Type): Type {
  if (s.k === "str") return STR;
  if (s.k === "list") return s;
  return { k: "tupleOf", elem: tupleElems(s) };
}

function isSequence(m: Type): boolean {
  return m.k === "str" || m.k === "list" || isTuple(m);
}

function multiply(l: Type, r: Type): TypeRuleResult {
  if (isNumber(l) && isNumber(r)) return ok(numeric(l, r));
  if (isSequence(l))
    return isIntLike(r) ? ok(repeated(l)) : fail(`can't multiply sequence by non-int of type '${name(r)}'`);
  if (isSequence(r))
    return isIntLike(l) ? ok(repeated(r)) : fail(`can't multiply sequence by non-int of type '${name(l)}'`);
  return unsupported("*", l, r);
}

function arithmetic(op: BinaryOperator, l: Type, r: Type): TypeRuleResult {
  switch (op) {
    case "+":
      return add(l, r);
    case "*":
      return multiply(l, r);
    case "/":
      return isNumber(l) && isNumber(r) ? ok(FLOAT) : unsupported(op, l, r);
    default:
      // -, //, % (a string on the left of % is not formatting here: docs/reference/language.md §10.8.5)
      return isNumber(l) && isNumber(r) ? ok(numeric(l, r)) : unsupported(op, l, r);
  }
}

/** `l op r` for the six arithmetic operators. */
export function binaryType(op: BinaryOperator, l: Type, r: Type): TypeRuleResult {
  return lift2(l, r, (x, y) => arithmetic(op, x, y));
}

/** `-t`, `+t` (booleans become ints) and `not t` (always a bool). */
export function unaryType(op: "-" | "+" | "not", t: Type): TypeRuleResult {
  if (op === "not") return ok(BOOL);
  return lift1(t, (m) => {
    if (m.k === "bool" || m.k === "int") return ok(INT);
    if (m.k === "float") return ok(FLOAT);
    return fail(`bad operand type for unary ${op}: '${name(m)}'`);
  });
}

function ordering(op: string, l: Type, r: Type): TypeRuleResult {
  const comparable =
    (isNumber(l) && isNumber(r)) ||
    (l.k === "str" && r.k === "str") ||
    (l.k === "list" && r.k === "list") ||
    (isTuple(l) && isTuple(r));
  return comparable
    ? ok(BOOL)
    : fail(`'${op}' not supported between instances of '${name(l)}' and '${name(r)}'`);
}

/** `x in container` for one pair of members. */
function membership(x: Type, c: Type): TypeRuleResult {
  if (c.k === "str") {
    return x.k === "str" ? ok(BOOL) : fail(`'in <string>' requires string as left operand, not ${name(x)}`);
  }
  if (c.k === "list" || isTuple(c) || c.k === "values" || c.k === "items" || c.k === "generator")
    return ok(BOOL);
  if (isMapping(c) || c.k === "keys") {
    return isUnhashable(x) ? fail(`unhashable type: '${name(unhashablePart(x))}'`) : ok(BOOL);
  }
  return fail(`argument of type '${name(c)}' is not iterable`);
}

/** One comparison `l op r`: always a bool; ordering and membership may fail. */
export function compareType(op: CompareOperator, l: Type, r: Type): TypeRuleResult {
  switch (op) {
    case "==":
    case "!=":
    case "is":
    case "is not":
      return ok(BOOL);
    case "in":
    case "not in":
      return lift2(l, r, membership);
    default:
      return lift2(l, r, (x, y) => ordering(op, x, y));
  }
}

/** Equality classes (docs/reference/language.md §10.12.3): members of different classes are never equal. */
function equalityClass(m: Type): string {
  switch (m.k) {
    case "bool":
    case "int":
    case "float":
      return "number";
    case "tuple":
    case "tupleOf":
      return "tuple";
    case "dict":
    case "record":
      return "dict";
    default:
      return m.k;
  }
}

/** True when `==` between the two types is certainly False (both fully known, no shared class). */
export function neverEqual(l: Type, r: Type): boolean {
  if (l.k === "any" || r.k === "any") return false;
  const left = new Set(members(l).map(equalityClass));
  return !members(r).some((m) => left.has(equalityClass(m)));
}
