// Checker types (docs/reference/language.md §10.12.1). Plain immutable data, except RecordType, whose field map
// is filled once while contracts are translated (contracts may refer to themselves).

export type Type =
  | { readonly k: "any" }
  | { readonly k: "none" }
  | { readonly k: "bool" }
  /** `values`: an enumeration from a contract field's `values` (numeric literal set). */
  | { readonly k: "int"; readonly values?: readonly number[] }
  | { readonly k: "float"; readonly values?: readonly number[] }
  /** `values`: an enumeration `str{'a','b'}`. */
  | { readonly k: "str"; readonly values?: readonly string[] }
  | { readonly k: "list"; readonly elem: Type }
  /** A tuple of known length. */
  | { readonly k: "tuple"; readonly elems: readonly Type[] }
  /** A tuple of unknown length with elements of one type (`tuple[T, …]`). */
  | { readonly k: "tupleOf"; readonly elem: Type }
  | { readonly k: "dict"; readonly key: Type; readonly value: Type }
  | { readonly k: "record"; readonly record: RecordType }
  /** The namespace bound to `result` / `item`, over a record or dict type. */
  | { readonly k: "ns"; readonly of: Type }
  | { readonly k: "keys"; readonly key: Type }
  | { readonly k: "values"; readonly value: Type }
  | { readonly k: "items"; readonly key: Type; readonly value: Type }
  | { readonly k: "generator"; readonly elem: Type }
  /** A bound method; `receiver`/`name` when known (for signature help and error texts). */
  | { readonly k: "method"; readonly receiver?: Type; readonly name?: string }
  /** A union of two or more non-union, non-any members (see `union`). */
  | { readonly k: "union"; readonly members: readonly Type[] };

export interface RecordField {
  readonly type: Type;
  /** Optional fields (`required: false`) may be null or absent: their type already has `| none`. */
  readonly optional: boolean;
  /** The field's `type` as written in the contract, for hover and payloads. */
  readonly written?: string;
}

/** A contract as a checker type. Two RecordTypes are the same type only if they are one object. */
export class RecordType {
  readonly fields = new Map<string, RecordField>();
  constructor(readonly name: string) {}
}

export const ANY: Type = { k: "any" };
export const NONE: Type = { k: "none" };
export const BOOL: Type = { k: "bool" };
export const INT: Type = { k: "int" };
export const FLOAT: Type = { k: "float" };
export const STR: Type = { k: "str" };

export function listOf(elem: Type): Type {
  return { k: "list", elem };
}
export function dictOf(key: Type, value: Type): Type {
  return { k: "dict", key, value };
}
export function recordOf(record: RecordType): Type {
  return { k: "record", record };
}
