// A cheap, one-sided form of the contract check (interpreter/checks/contract.ts) on a plain JSON
// value, before it is turned into a Python value: the solver draws 300 results per step and,
// for the common shapes, every one conforms, so deciding that on the plain value spares both the
// conversion of every candidate (done later, only for those an expression reads) and the full
// check. It answers `true` only where the full check certainly finds no violation; anything it
// does not decide for certain (a missing field, a wrong kind, an unusual object, most output_schemas)
// is `undefined`, and the caller runs the interpreter's own check: so the candidates kept are
// exactly those the full check keeps.
import type { CheckedSpec, ContractIR, FieldDefIR, JsonObject, JsonValue } from "../../checker/index";

/** Whether `plain` is an object the conversion reads field by field (Object.entries). */
function plainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const enumerable = (o: object, k: string) => Object.prototype.propertyIsEnumerable.call(o, k);

/**
 * `true` when `plain` certainly passes the contract (and there is no output_schema), `undefined`
 * when only the full check can tell. A step without a contract or schema conforms trivially.
 */
export function surelyConforms(
  contract: ContractIR | null,
  schema: JsonObject | null,
  plain: unknown,
  spec: CheckedSpec,
): true | undefined {
  if (schema !== null && !schemaPasses(schema, plain)) return undefined;
  if (contract === null) return true;
  return plainObject(plain) && fieldsPass(plain, contract, spec) ? true : undefined;
}

const TOP_KEYWORDS = new Set(["type", "required", "properties"]);

/**
 * The one output_schema form decided here: `{type: object, required: [...], properties: {f: {type:
 * T}}}` with plain types and no other keyword (the common "these fields, these kinds" schema);
 * any other schema is left to the interpreter's validator.
 */
function schemaPasses(schema: JsonObject, plain: unknown): boolean {
  if (schema.type !== "object" || !Object.keys(schema).every((k) => TOP_KEYWORDS.has(k))) return false;
  if (!plainObject(plain)) return false;
  const required = schema.required ?? [];
  if (!Array.isArray(required)) return false;
  for (const name of required) if (typeof name !== "string" || !enumerable(plain, name)) return false;
  const properties = schema.properties ?? {};
  if (properties === null || typeof properties !== "object" || Array.isArray(properties)) return false;
  for (const [name, sub] of Object.entries(properties)) {
    if (sub === null || typeof sub !== "object" || Array.isArray(sub)) return false;
    const keys = Object.keys(sub);
    const type = (sub as JsonObject).type;
    if (keys.length !== 1 || keys[0] !== "type" || typeof type !== "string") return false;
    if (enumerable(plain, name) && !hasType(type, plain[name])) return false;
  }
  return true;
}

/** JSON Schema's `type` on the converted value, where the plain value says it for certain. */
function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return plainObject(value);
    default:
      return false;
  }
}

function fieldsPass(object: Record<string, unknown>, contract: ContractIR, spec: CheckedSpec): boolean {
  for (const [name, def] of contract.fields) {
    // The conversion keeps own enumerable fields only: anything else is a missing field.
    if (!enumerable(object, name)) {
      if (def.required) return false;
      continue;
    }
    if (!valuePasses(object[name], def, spec)) return false;
  }
  return true;
}

function valuePasses(value: unknown, def: FieldDefIR, spec: CheckedSpec): boolean {
  if (value === null) return !def.required;
  if (!accepts(def, value)) return false;
  if (def.values !== null && !surelyAmong(value, def.values)) return false;
  if (def.kind === "array" && def.items !== null) {
    // By index: a hole reads as undefined, which no kind accepts (left to the full check).
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) if (!valuePasses(items[i], def.items, spec)) return false;
    return true;
  }
  if (def.kind === "contract") {
    const nested = spec.contracts.get(def.type);
    return nested === undefined || fieldsPass(value as Record<string, unknown>, nested, spec);
  }
  return true;
}

/** The plain kinds whose converted value the field's type accepts (docs/reference/runtime.md §4.2). */
function accepts(def: FieldDefIR, value: unknown): boolean {
  switch (def.kind) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      // An integral number converts to an int; anything else is left to the full check.
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
    case "contract":
      return plainObject(value);
  }
}

/**
 * Membership the full check certainly agrees with: the same string, boolean or number (NaN never
 * matches), which converts to the same Python value; other matches (`1 == True`) are left to it.
 */
function surelyAmong(value: unknown, values: readonly JsonValue[]): boolean {
  if (typeof value !== "string" && typeof value !== "boolean" && typeof value !== "number") return false;
  return values.some((v) => v === value);
}
