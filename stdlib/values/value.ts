// The run-time value model of the expression language (docs/reference/language.md §10.7).
//
// Representation choices (fixed: every layer relies on them):
// - None        → null
// - bool        → boolean
// - int         → number when it is a safe integer (|n| ≤ 2^53−1), bigint otherwise. Never a bigint
//                 inside the safe range: use `normInt` after every bigint operation.
// - float       → PyFloat (a box, so that 1 and 1.0 stay distinct)
// - str         → string (JS string; length, indexing and ordering are by code point)
// - list        → PyValue[] (never mutated after construction)
// - tuple, dict, namespace, views, generator, bound method → the classes below

export type PyInt = number | bigint;

export class PyFloat {
  constructor(readonly v: number) {}
}

export class PyTuple {
  constructor(readonly items: readonly PyValue[]) {}
}

/** A dictionary key after hashing: equal Python keys (1, 1.0, True) map to one DictKey. */
export type DictKey = string | number | bigint | boolean | null | object;

/**
 * Insertion-ordered mapping with Python key semantics. Keys must be hashable (see `hashKey` in
 * dict.ts); the map is built once and then only read by expressions.
 */
export class PyDict {
  /** hashKey(key) → [original key, value]; insertion order is Map order. */
  readonly entries = new Map<DictKey, [PyValue, PyValue]>();
  get size(): number {
    return this.entries.size;
  }
}

/** The object bound to `result` / `item` (docs/reference/language.md §10.7.3). Only the top level is a namespace. */
export class PyNamespace {
  constructor(readonly dict: PyDict) {}
}

export type ViewKind = "keys" | "values" | "items";

/** dict_keys / dict_values / dict_items over a dict (live views). */
export class PyView {
  constructor(
    readonly kind: ViewKind,
    readonly dict: PyDict,
  ) {}
}

/** A lazy, single-use generator (generator expressions). */
export class PyGenerator {
  constructor(readonly iterator: Iterator<PyValue>) {}
}

/** A method accessed without being called (`'a'.upper`), or before being called. */
export class PyBoundMethod {
  constructor(
    readonly receiver: PyValue,
    readonly name: string,
  ) {}
}

export type PyValue =
  | null
  | boolean
  | number
  | bigint
  | PyFloat
  | string
  | readonly PyValue[]
  | PyTuple
  | PyDict
  | PyNamespace
  | PyView
  | PyGenerator
  | PyBoundMethod;

export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Normalises a bigint result to the canonical int representation. */
export function normInt(n: bigint): PyInt {
  return n >= -9007199254740991n && n <= 9007199254740991n ? Number(n) : n;
}

export function isList(v: PyValue): v is readonly PyValue[] {
  return Array.isArray(v);
}

/** The Python type name used in error messages (docs/reference/language.md §10.7.1). */
export function typeName(v: PyValue): string {
  if (v === null) return "NoneType";
  switch (typeof v) {
    case "boolean":
      return "bool";
    case "number":
    case "bigint":
      return "int";
    case "string":
      return "str";
  }
  if (Array.isArray(v)) return "list";
  if (v instanceof PyFloat) return "float";
  if (v instanceof PyTuple) return "tuple";
  if (v instanceof PyDict) return "dict";
  if (v instanceof PyNamespace) return "types.SimpleNamespace";
  if (v instanceof PyView) return `dict_${v.kind}`;
  if (v instanceof PyGenerator) return "generator";
  return "builtin_function_or_method";
}
