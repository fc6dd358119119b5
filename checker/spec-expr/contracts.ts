// Contracts as checker record types (docs/reference/language.md §3.2, docs/reference/language.md §10.12.1). One RecordType per contract that
// is a mapping, built once per model: the expression phase and the IR must share the very same
// objects (two RecordTypes are the same type only if they are one object).
import { type FieldDefinition, fieldType } from "../../stdlib/types/field-type";
import { ANY, RecordType } from "../../stdlib/types/type";
import { PyFloat } from "../../stdlib/values/value";
import type { FieldDefDecl, SpecModel } from "../model/types";
import type { SpecNode } from "../yaml/nodes";

const cache = new WeakMap<SpecModel, ReadonlyMap<string, RecordType>>();

/** The record of every contract that is a mapping, by name, in declaration order (memoised per model). */
export function contractRecords(model: SpecModel): ReadonlyMap<string, RecordType> {
  let records = cache.get(model);
  if (records === undefined) {
    records = buildRecords(model);
    cache.set(model, records);
  }
  return records;
}

function buildRecords(model: SpecModel): ReadonlyMap<string, RecordType> {
  const records = new Map<string, RecordType>();
  // Create every record first: fields may name any contract, including their own (recursion).
  for (const c of model.contracts) if (c.node !== null) records.set(c.name, new RecordType(c.name));
  const resolve = (name: string) => records.get(name);
  for (const c of model.contracts) {
    const record = records.get(c.name);
    if (record === undefined) continue;
    for (const f of c.fields) {
      if (f.def === null) {
        // The definition is not a mapping (SCHEMA-TYPE was reported): the field exists, of an
        // unknown type, so reading it is not a second (EXPR-UNKNOWN-FIELD) error.
        record.fields.set(f.name, { type: ANY, optional: false });
        continue;
      }
      const def = fieldDefinition(f.def);
      record.fields.set(f.name, {
        type: fieldType(def, resolve),
        optional: def.required === false,
        ...(f.def.type !== null
          ? { written: f.def.shorthand?.kind === "enum" ? "enum" : f.def.type.value }
          : {}),
      });
    }
  }
  return records;
}

/** The keys of a field definition that affect its type; an invalid `type` resolves to `any`. */
function fieldDefinition(def: FieldDefDecl): FieldDefinition {
  const values = def.seq("values");
  const required = def.boolean("required");
  return {
    type: def.type?.value ?? "",
    ...(values !== null ? { values: values.value.items.map(plainValue) } : {}),
    ...(def.items !== null ? { items: fieldDefinition(def.items) } : {}),
    ...(required !== null ? { required: required.value } : {}),
  };
}

/**
 * An enumeration value as a plain JS value: floats unboxed, big integers as (inexact) numbers;
 * anything that cannot be a literal of a field type (mappings, sequences, dates) becomes null.
 */
function plainValue(node: SpecNode): unknown {
  if (node.kind !== "scalar") return null;
  const v = node.value;
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "bigint") return Number(v);
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
  return null;
}
