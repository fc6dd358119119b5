// min, max, any, all, sum, sorted (docs/reference/language.md §10.9).
import { binaryOp } from "../values/arithmetic";
import { typeError, valueError } from "../values/errors";
import { toArray } from "../values/iteration";
import { pyCompare } from "../values/ordering";
import { truthy } from "../values/truth";
import type { PyValue } from "../values/value";
import { asIndex, elements } from "./common";
import type { EvalEnv } from "./env";
import { stableSort } from "./sort";

/**
 * min()/max(): one positional argument is iterated, several are compared directly. The running
 * best is replaced when `item < best` (`>` for max), so ties keep the first element and an
 * incomparable pair raises with the new item on the left.
 */
export function minMax(
  which: "min" | "max",
  args: readonly PyValue[],
  defaultValue: PyValue | undefined,
  env: EvalEnv,
): PyValue {
  if (args.length > 1 && defaultValue !== undefined) {
    throw typeError(`Cannot specify a default for ${which}() with multiple positional arguments`);
  }
  const source: Iterable<PyValue> =
    args.length === 1 ? elements(args[0] as PyValue, env) : chargeEach(args, env);
  const op = which === "min" ? "<" : ">";
  let best: PyValue | undefined;
  for (const item of source) {
    if (best === undefined || pyCompare(op, item, best, env.budget)) best = item;
  }
  if (best !== undefined) return best;
  if (defaultValue !== undefined) return defaultValue;
  throw valueError(`${which}() arg is an empty sequence`);
}

function* chargeEach(values: readonly PyValue[], env: EvalEnv): Generator<PyValue> {
  for (const v of values) {
    env.budget.charge(1);
    yield v;
  }
}

export function pyAny(iterable: PyValue, env: EvalEnv): boolean {
  for (const item of elements(iterable, env)) if (truthy(item)) return true;
  return false;
}

export function pyAll(iterable: PyValue, env: EvalEnv): boolean {
  for (const item of elements(iterable, env)) if (!truthy(item)) return false;
  return true;
}

/** sum(iterable, start=0): left-to-right `+`, so float sums are plain (not compensated). */
export function pySum(iterable: PyValue, start: PyValue | undefined, env: EvalEnv): PyValue {
  const items = elements(iterable, env);
  if (typeof start === "string") throw typeError("sum() can't sum strings [use ''.join(seq) instead]");
  let total: PyValue = start === undefined ? 0 : start;
  for (const item of items) total = binaryOp("+", total, item, env.budget);
  return total;
}

/**
 * sorted(iterable, reverse=False). Before sorting, each element is compared with its predecessor
 * so that the first incomparable adjacent pair decides the error (docs/reference/language.md §10.9).
 */
export function pySorted(iterable: PyValue, reverse: PyValue | undefined, env: EvalEnv): PyValue[] {
  const items = toArray(iterable, env.budget);
  const descending = reverse === undefined ? false : asIndex(reverse) !== 0 && asIndex(reverse) !== 0n;
  const n = items.length;
  env.budget.charge(Math.ceil(n * Math.log2(n + 1)));
  for (let i = 1; i < n; i++) pyCompare("<", items[i] as PyValue, items[i - 1] as PyValue, env.budget);
  return stableSort(items, (a, b) => pyCompare("<", a, b, env.budget), descending);
}
