// Derived record types (docs/reference/language.md §10.12.2): a contract record extended by a step's output_schema
// properties, and a stored output extended by the accumulator fields. RecordType is per contract,
// so every extension is a fresh copy that keeps the contract's name (messages name the contract).
import { INT, listOf, NONE, RecordType, type Type } from "../../stdlib/types/type";
import { union } from "../../stdlib/types/union";
import type { SchemaProperties } from "./output-schema";

function copyOf(base: RecordType): RecordType {
  const copy = new RecordType(base.name);
  for (const [name, field] of base.fields) copy.fields.set(name, field);
  return copy;
}

/** `base` plus every schema property it does not declare; `base` itself when nothing is added. */
export function extendRecord(base: RecordType, properties: SchemaProperties): RecordType {
  let copy: RecordType | null = null;
  for (const [name, prop] of properties) {
    if (base.fields.has(name)) continue;
    copy ??= copyOf(base);
    copy.fields.set(name, {
      type: prop.required ? prop.type : union(prop.type, NONE),
      optional: !prop.required,
    });
  }
  return copy ?? base;
}

/**
 * The stored output of an iterated step (docs/reference/runtime.md §4.6): the result plus the optional fields
 * `accumulated` (list of the accumulate element type) and `accumulated_count`. They replace
 * same-named result fields, as the stored output does.
 */
export function withAccumulatorFields(base: RecordType, element: Type): RecordType {
  const copy = copyOf(base);
  copy.fields.set("accumulated", { type: union(listOf(element), NONE), optional: true });
  copy.fields.set("accumulated_count", { type: union(INT, NONE), optional: true });
  return copy;
}
