// Ordering comparisons `<`, `<=`, `>`, `>=` (docs/reference/language.md §10.8.3).
import type { Budget } from "./budget";
import { pyEquals } from "./equality";
import { typeError } from "./errors";
import { compareNumbers, isNumber } from "./numbers";
import { compareCodePoints } from "./strings";
import { PyTuple, type PyValue, typeName } from "./value";

export type OrderOperator = "<" | "<=" | ">" | ">=";

function holds(op: OrderOperator, c: number): boolean {
  // c is NaN for comparisons involving NaN: every operator is then false.
  switch (op) {
    case "<":
      return c < 0;
    case "<=":
      return c <= 0;
    case ">":
      return c > 0;
    case ">=":
      return c >= 0;
  }
}

function sequenceCompare(
  op: OrderOperator,
  a: readonly PyValue[],
  b: readonly PyValue[],
  budget: Budget | undefined,
): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    budget?.charge(1);
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (!pyEquals(x, y, budget)) return pyCompare(op, x, y, budget);
  }
  return holds(op, a.length - b.length);
}

/** `a <op> b`; TypeError `'<op>' not supported between instances of 'x' and 'y'`. */
export function pyCompare(op: OrderOperator, a: PyValue, b: PyValue, budget?: Budget): boolean {
  if (typeof a === "number" && typeof b === "number") return holds(op, a - b);
  if (isNumber(a) && isNumber(b)) return holds(op, compareNumbers(a, b));
  if (typeof a === "string" && typeof b === "string") return holds(op, compareCodePoints(a, b));
  if (Array.isArray(a) && Array.isArray(b)) return sequenceCompare(op, a, b, budget);
  if (a instanceof PyTuple && b instanceof PyTuple) return sequenceCompare(op, a.items, b.items, budget);
  throw typeError(`'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}
