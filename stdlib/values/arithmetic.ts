// Binary and unary arithmetic (docs/reference/language.md §10.8.5), with the budget charges of docs/reference/language.md §10.15.
import type { Budget } from "./budget";
import { PyError, typeError } from "./errors";
import { floatFloorDiv, floatMod, floatTrueDiv, intTrueDiv } from "./float-ops";
import {
  bitLength,
  fitsIndex,
  intAdd,
  intDivMod,
  intMul,
  intNeg,
  intSub,
  intToFloat,
  isNumber,
  type PyNumber,
  toNumberValue,
} from "./numbers";
import { cpLength } from "./strings";
import { PyFloat, type PyInt, PyTuple, type PyValue, typeName } from "./value";

/** The same literal union as grammar/ast's BinaryOperator (stdlib imports nothing from grammar). */
export type BinaryOperator = "+" | "-" | "*" | "/" | "//" | "%";

function unsupported(op: string, a: PyValue, b: PyValue): PyError {
  return typeError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

/** Charges 1 per 64 bits of an integer result wider than 64 bits. */
function chargeInt(r: PyInt, budget: Budget | undefined): PyInt {
  if (budget !== undefined && typeof r === "bigint") {
    const bits = bitLength(r);
    if (bits > 64) budget.charge(Math.ceil(bits / 64));
  }
  return r;
}

function intOp(op: BinaryOperator, x: PyInt, y: PyInt, budget: Budget | undefined): PyValue {
  switch (op) {
    case "+":
      return chargeInt(intAdd(x, y), budget);
    case "-":
      return chargeInt(intSub(x, y), budget);
    case "*":
      return chargeInt(intMul(x, y), budget);
    case "/":
      return new PyFloat(intTrueDiv(x, y));
    case "//":
      if (y === 0) throw new PyError("ZeroDivisionError", "integer division or modulo by zero");
      return chargeInt(intDivMod(x, y)[0], budget);
    case "%":
      if (y === 0) throw new PyError("ZeroDivisionError", "integer modulo by zero");
      return chargeInt(intDivMod(x, y)[1], budget);
  }
}

function floatOp(op: BinaryOperator, x: number, y: number): PyFloat {
  switch (op) {
    case "+":
      return new PyFloat(x + y);
    case "-":
      return new PyFloat(x - y);
    case "*":
      return new PyFloat(x * y);
    case "/":
      return new PyFloat(floatTrueDiv(x, y));
    case "//":
      return new PyFloat(floatFloorDiv(x, y));
    case "%":
      return new PyFloat(floatMod(x, y));
  }
}

function numericOp(op: BinaryOperator, a: PyNumber, b: PyNumber, budget: Budget | undefined): PyValue {
  const x = toNumberValue(a);
  const y = toNumberValue(b);
  if (x instanceof PyFloat || y instanceof PyFloat) {
    const fx = x instanceof PyFloat ? x.v : intToFloat(x);
    const fy = y instanceof PyFloat ? y.v : intToFloat(y);
    return floatOp(op, fx, fy);
  }
  return intOp(op, x, y, budget);
}

function concat(a: PyValue, b: PyValue, budget: Budget | undefined): PyValue {
  if (typeof a === "string") {
    if (typeof b !== "string") throw typeError(`can only concatenate str (not "${typeName(b)}") to str`);
    budget?.charge(cpLength(a) + cpLength(b));
    return a + b;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) throw typeError(`can only concatenate list (not "${typeName(b)}") to list`);
    budget?.charge(a.length + b.length);
    return [...a, ...b];
  }
  if (a instanceof PyTuple) {
    if (!(b instanceof PyTuple))
      throw typeError(`can only concatenate tuple (not "${typeName(b)}") to tuple`);
    budget?.charge(a.items.length + b.items.length);
    return new PyTuple([...a.items, ...b.items]);
  }
  throw unsupported("+", a, b);
}

function isSequence(v: PyValue): v is string | readonly PyValue[] | PyTuple {
  return typeof v === "string" || Array.isArray(v) || v instanceof PyTuple;
}

/** Repeats a sequence `count` times; the size of the result is charged before it is built. */
function repeatSequence(
  seq: string | readonly PyValue[] | PyTuple,
  count: PyValue,
  budget?: Budget,
): PyValue {
  if (typeof count !== "number" && typeof count !== "bigint" && typeof count !== "boolean") {
    throw typeError(`can't multiply sequence by non-int of type '${typeName(count)}'`);
  }
  const n = toNumberValue(count) as PyInt;
  if (!fitsIndex(n)) throw new PyError("OverflowError", "cannot fit 'int' into an index-sized integer");
  const times = n > 0 ? Number(n) : 0;
  if (typeof seq === "string") {
    if (seq === "" || times === 0) return "";
    budget?.charge(cpLength(seq) * times);
    return seq.repeat(times);
  }
  const items: readonly PyValue[] = seq instanceof PyTuple ? seq.items : seq;
  const out: PyValue[] = [];
  if (items.length > 0 && times > 0) {
    budget?.charge(items.length * times);
    for (let i = 0; i < times; i++) for (const item of items) out.push(item);
  }
  return Array.isArray(seq) ? out : new PyTuple(out);
}

/** `a <op> b` for the arithmetic operators. */
export function binaryOp(op: BinaryOperator, a: PyValue, b: PyValue, budget?: Budget): PyValue {
  if (isNumber(a) && isNumber(b)) return numericOp(op, a, b, budget);
  if (op === "+") return concat(a, b, budget);
  if (op === "*") {
    // Python tries the left operand's sequence repeat first, then the right's.
    if (isSequence(a)) return repeatSequence(a, b, budget);
    if (isSequence(b)) return repeatSequence(b, a, budget);
  }
  throw unsupported(op, a, b);
}

/** Unary `-x` / `+x`: numbers only, booleans become ints. */
export function unaryOp(op: "-" | "+", v: PyValue): PyValue {
  if (!isNumber(v)) throw typeError(`bad operand type for unary ${op}: '${typeName(v)}'`);
  const x = toNumberValue(v);
  if (op === "+") return x;
  return x instanceof PyFloat ? new PyFloat(-x.v) : intNeg(x);
}
