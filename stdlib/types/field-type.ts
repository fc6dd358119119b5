// Translation of contract field definitions (docs/reference/language.md §3.2) and output_schema property types
// (docs/reference/language.md §10.12.2) into checker types. Records are created by the contract checker; this module only
// maps one definition, asking `resolveContract` for contract names.
import { ANY, BOOL, FLOAT, INT, NONE, type RecordType, STR, type Type } from "./type";
import { union } from "./union";

/** A contract field definition as loaded from YAML (only the keys that affect the type). */
export interface FieldDefinition {
  readonly type: string;
  readonly values?: readonly unknown[];
  readonly items?: FieldDefinition;
  readonly required?: boolean;
}

export type ContractResolver = (name: string) => RecordType | undefined;

function numbers(values: readonly unknown[], integral: boolean): number[] {
  return values.filter((v): v is number => typeof v === "number" && (!integral || Number.isInteger(v)));
}

/** An enumeration type, or the plain kind when no listed value fits it (that is a contract error). */
function enumeration(k: "str" | "int" | "float", values: readonly (string | number)[]): Type {
  return (values.length === 0 ? { k } : { k, values }) as Type;
}

/** The checker type of a field's `type` (+ `values`, `items`), without the `required` rule. */
function valueTypeOfField(def: FieldDefinition, resolveContract: ContractResolver): Type {
  const values = def.values;
  switch (def.type) {
    case "string": {
      if (values === undefined) return STR;
      return enumeration(
        "str",
        values.filter((v): v is string => typeof v === "string"),
      );
    }
    case "integer":
      return values === undefined ? INT : enumeration("int", numbers(values, true));
    case "number":
      if (values === undefined) return union(INT, FLOAT);
      return union(enumeration("int", numbers(values, true)), enumeration("float", numbers(values, false)));
    case "boolean":
      return BOOL;
    case "array":
      return { k: "list", elem: def.items === undefined ? ANY : fieldType(def.items, resolveContract) };
    case "object":
      return { k: "dict", key: STR, value: ANY };
    default: {
      const record = resolveContract(def.type);
      return record === undefined ? ANY : { k: "record", record };
    }
  }
}

/** The checker type of a contract field: `T`, or `T | none` when `required: false`. */
export function fieldType(def: FieldDefinition, resolveContract: ContractResolver): Type {
  const t = valueTypeOfField(def, resolveContract);
  return def.required === false ? union(t, NONE) : t;
}

// A Map, not an object literal: schema text such as "constructor" must not hit Object.prototype.
const SCHEMA_TYPES: ReadonlyMap<string, Type> = new Map<string, Type>([
  ["string", STR],
  ["integer", INT],
  ["number", union(INT, FLOAT)],
  ["boolean", BOOL],
  ["array", { k: "list", elem: ANY }],
  ["object", { k: "dict", key: STR, value: ANY }],
  ["null", NONE],
]);

/** The checker type of an output_schema property's JSON Schema `type` (docs/reference/language.md §10.12.2). */
export function schemaPropertyType(type: unknown): Type {
  if (typeof type === "string") return SCHEMA_TYPES.get(type) ?? ANY;
  if (Array.isArray(type)) {
    const ts = type.map((t) => (typeof t === "string" ? SCHEMA_TYPES.get(t) : undefined));
    if (ts.length === 0 || ts.some((t) => t === undefined)) return ANY;
    return union(...(ts as Type[]));
  }
  return ANY;
}
