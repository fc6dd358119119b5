// Helpers for the value tests: compact constructors and a uniform rendering of outcomes.
import { makeDict } from "../../../stdlib/values/dict";
import { PyError } from "../../../stdlib/values/errors";
import { repr } from "../../../stdlib/values/repr";
import { normInt, PyFloat, type PyInt, PyTuple, type PyValue } from "../../../stdlib/values/value";

export const f = (x: number): PyFloat => new PyFloat(x);
export const t = (...items: PyValue[]): PyTuple => new PyTuple(items);
export const d = (...pairs: [PyValue, PyValue][]) => makeDict(pairs);
export const big = (digits: string): PyInt => normInt(BigInt(digits));

/** Python's repr of the outcome, or `!Kind: message` for a raised PyError (as the tables store it). */
export function show(fn: () => PyValue): string {
  try {
    return repr(fn());
  } catch (e) {
    if (e instanceof PyError) return `!${e.kind}: ${e.message}`;
    throw e;
  }
}

/** A table row: operation, left operand, right operand (or null), expected outcome from CPython. */
export type Row = readonly [string, PyValue, PyValue, string];
