// Expected responses: plain JSON data compared exactly (values and key order), except where the
// expectation says ANY (durations measured with the real clock, ids chosen by the engine). Used by
// the crash child (which stops at the first surprise) and by the tests, so it returns a
// description of the first difference instead of throwing.
import { wireToPlain } from "../../../../interpreter/wire/encode";
import type { Response } from "../../../../interpreter/wire/wire";

/** Matches any present value. */
export const ANY: unique symbol = Symbol("any");

export type Expected =
  | null
  | boolean
  | number
  | string
  | typeof ANY
  | readonly Expected[]
  | { readonly [key: string]: Expected };

export function isPlainObject(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The first difference between a response and its expectation, or null when it matches. */
export function mismatch(response: Response, expected: Expected): string | null {
  return difference(wireToPlain(response), expected, "$");
}

function difference(actual: unknown, expected: Expected, path: string): string | null {
  if (expected === ANY) return actual === undefined ? `${path}: missing` : null;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${show(actual)}`;
    if (actual.length !== expected.length) {
      return `${path}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const d = difference(actual[i], expected[i] as Expected, `${path}[${i}]`);
      if (d !== null) return d;
    }
    return null;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return `${path}: expected an object, got ${show(actual)}`;
    const keys = Object.keys(expected);
    const actualKeys = Object.keys(actual);
    if (keys.join(",") !== actualKeys.join(",")) {
      return `${path}: expected keys [${keys.join(", ")}], got [${actualKeys.join(", ")}] in ${show(actual)}`;
    }
    for (const k of keys) {
      const d = difference(actual[k], expected[k] as Expected, `${path}.${k}`);
      if (d !== null) return d;
    }
    return null;
  }
  return Object.is(actual, expected) ? null : `${path}: expected ${show(expected)}, got ${show(actual)}`;
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x === ANY ? "<any>" : x)) ?? String(v);
}
