// Helpers for the builtin tests: value constructors, an evaluation environment, outcomes.
import type { EvalEnv } from "../../../stdlib/builtins/env";
import type { FileAccess } from "../../../stdlib/files";
import { Budget } from "../../../stdlib/values/budget";
import { makeDict } from "../../../stdlib/values/dict";
import { PyError } from "../../../stdlib/values/errors";
import { repr } from "../../../stdlib/values/repr";
import { PyFloat, PyTuple, type PyValue } from "../../../stdlib/values/value";

/** [python source, receiver (null for a builtin), name, args, kwargs, CPython outcome] */
export type Case = readonly [
  string,
  PyValue,
  string,
  readonly PyValue[],
  Readonly<Record<string, PyValue>>,
  string,
];

export const f = (x: number): PyFloat => new PyFloat(x);
export const t = (...items: PyValue[]): PyTuple => new PyTuple(items);
export const d = (...entries: [PyValue, PyValue][]) => makeDict(entries);

export function env(files: FileAccess | null = null, limit?: number): EvalEnv {
  return { budget: new Budget(limit), files };
}

export function kw(record: Readonly<Record<string, PyValue>>): ReadonlyMap<string, PyValue> | null {
  const entries = Object.entries(record);
  return entries.length === 0 ? null : new Map(entries);
}

/** `repr(result)`, or `<Kind>: <message>` when the call raises a PyError. */
export function outcome(run: () => PyValue): string {
  try {
    return repr(run());
  } catch (e) {
    if (e instanceof PyError) return `${e.kind}: ${e.message}`;
    throw e;
  }
}
