// The top-level `properties` of a step's output_schema as checker field types (docs/reference/language.md §10.12.2):
// `type` translated by schemaPropertyType, optional unless listed in the schema's `required`.
import { schemaPropertyType } from "../../stdlib/types/field-type";
import { ANY, type Type } from "../../stdlib/types/type";
import { union } from "../../stdlib/types/union";
import type { StepDecl } from "../model/types";
import type { SpecNode } from "../yaml/nodes";

interface SchemaProperty {
  /** The property's type without `| none`. */
  readonly type: Type;
  readonly required: boolean;
}

export type SchemaProperties = ReadonlyMap<string, SchemaProperty>;

const EMPTY: SchemaProperties = new Map();

/** The properties declared by the step's output_schema, in declaration order (empty without one). */
export function outputSchemaProperties(step: StepDecl): SchemaProperties {
  const schema = step.map("output_schema")?.value;
  const properties = schema?.get("properties")?.value;
  if (schema === undefined || properties?.kind !== "map") return EMPTY;
  const required = requiredNames(schema.get("required")?.value);
  const out = new Map<string, SchemaProperty>();
  for (const entry of properties.entries) {
    if (entry.name === null) continue;
    const type = entry.value.kind === "map" ? typeOfSchema(entry.value.get("type")?.value) : ANY;
    out.set(entry.name, { type, required: required.has(entry.name) });
  }
  return out;
}

/** The JSON-level `type` keyword as schemaPropertyType expects it (absent → any). */
function typeOfSchema(node: SpecNode | undefined): Type {
  if (node === undefined) return ANY;
  if (node.kind === "scalar") return schemaPropertyType(node.value);
  if (node.kind === "seq") {
    return schemaPropertyType(node.items.map((item) => (item.kind === "scalar" ? item.value : null)));
  }
  return ANY;
}

function requiredNames(node: SpecNode | undefined): ReadonlySet<string> {
  const names = new Set<string>();
  if (node?.kind !== "seq") return names;
  for (const item of node.items) {
    if (item.kind === "scalar" && typeof item.value === "string") names.add(item.value);
  }
  return names;
}

/**
 * The properties present in EVERY list (a function's ensure sees only what all its using steps
 * declare): the union of their types, required only where every step requires it.
 */
export function commonProperties(lists: readonly SchemaProperties[]): SchemaProperties {
  const [first, ...rest] = lists;
  if (first === undefined) return EMPTY;
  const out = new Map<string, SchemaProperty>();
  for (const [name, prop] of first) {
    let type = prop.type;
    let required = prop.required;
    let everywhere = true;
    for (const other of rest) {
      const p = other.get(name);
      if (p === undefined) {
        everywhere = false;
        break;
      }
      type = union(type, p.type);
      required &&= p.required;
    }
    if (everywhere) out.set(name, { type, required });
  }
  return out;
}
