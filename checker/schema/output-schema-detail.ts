// Turns the meta-schema validator's errors into the `<detail>` of SPEC-OUTPUT-SCHEMA-INVALID
// (docs/reference/language.md §9.5.4): the offending sub-node of the output_schema and a jsonschema-style text
// such as `'strin' is not a valid type` or `-1 is less than the minimum of 0`.
import { floatRepr, strRepr } from "../../stdlib/values/repr";
import { PyFloat } from "../../stdlib/values/value";
import type { MapNode, SpecNode } from "../yaml/nodes";
import { pythonRepr } from "../yaml/repr";
import type { MetaSchemaError } from "./generated/meta-schema-validator";

export interface SchemaProblem {
  /** The offending node: a value inside the output_schema, or a property-name key. */
  readonly node: SpecNode;
  /** The key that holds `node` (null at the top), for an empty value such as `minLength:`. */
  readonly key: SpecNode | null;
  readonly detail: string;
}

interface Located {
  readonly node: SpecNode;
  readonly key: SpecNode | null;
}

/** Keywords that only say "a branch failed"; the branch's own error is more precise. */
const COMBINATORS = new Set([
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "$ref",
]);

/** The most relevant error, as a located detail; null when there is none. */
export function describeSchemaErrors(
  schema: MapNode,
  errors: readonly MetaSchemaError[],
): SchemaProblem | null {
  const located: (Located & { readonly error: MetaSchemaError })[] = [];
  for (const error of errors) {
    if (COMBINATORS.has(error.keyword)) continue;
    const at = locate(schema, error);
    if (at !== null) located.push({ ...at, error });
  }
  if (located.length === 0) {
    const first = errors[0];
    if (first === undefined) return null;
    return {
      node: schema,
      key: null,
      detail: `${pythonRepr(schema)} is not valid (${first.message ?? first.keyword})`,
    };
  }
  // In an anyOf, the branch written for another kind of value fails with a type (or enum) mismatch;
  // prefer the error of the branch that matches the value's kind.
  const strong = located.filter((x) => !isWeak(x.error, x.node));
  const pool = strong.length > 0 ? strong : located;
  let best = pool[0];
  for (const x of pool) if (best === undefined || depth(x.error) > depth(best.error)) best = x;
  if (best === undefined) return null;
  return { node: best.node, key: best.key, detail: detail(best.error, best.node) };
}

function depth(e: MetaSchemaError): number {
  return e.instancePath === "" ? 0 : e.instancePath.split("/").length;
}

function isWeak(e: MetaSchemaError, node: SpecNode): boolean {
  if (e.keyword === "type") return true;
  if (e.keyword !== "enum") return false;
  const allowed = e.params.allowedValues;
  if (!Array.isArray(allowed)) return false;
  const kind = jsonKind(node);
  return !allowed.some((a) => jsonKindOf(a) === kind);
}

function detail(e: MetaSchemaError, node: SpecNode): string {
  const value = e.propertyName !== undefined ? strRepr(e.propertyName) : pythonRepr(node);
  const p = e.params;
  switch (e.keyword) {
    case "enum":
      if (e.schemaPath.includes("simpleTypes")) return `${value} is not a valid type`;
      return `${value} is not one of ${jsonListRepr(p.allowedValues)}`;
    case "type":
      return `${value} is not of type ${typeList(p.type)}`;
    case "minimum":
      return `${value} is less than the minimum of ${numberText(p.limit)}`;
    case "exclusiveMinimum":
      return `${value} is less than or equal to the minimum of ${numberText(p.limit)}`;
    case "maximum":
      return `${value} is greater than the maximum of ${numberText(p.limit)}`;
    case "minItems":
      return p.limit === 1 ? `${value} should be non-empty` : `${value} is too short`;
    case "uniqueItems":
      return `${value} has non-unique elements`;
    case "format":
      return `${value} is not a ${strRepr(String(p.format))}`;
    case "pattern":
      return `${value} does not match ${strRepr(String(p.pattern))}`;
    case "required":
      return `${strRepr(String(p.missingProperty))} is a required property`;
    default:
      return `${value} is not valid (${e.message ?? e.keyword})`;
  }
}

/** The node at an error's instance path (a JSON pointer), or the key of its property name. */
function locate(schema: MapNode, e: MetaSchemaError): Located | null {
  let node: SpecNode = schema;
  let key: SpecNode | null = null;
  if (e.instancePath !== "") {
    for (const raw of e.instancePath.slice(1).split("/")) {
      const seg = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      if (node.kind === "map") {
        const entry = node.get(seg);
        if (entry === undefined) return null;
        node = entry.value;
        key = entry.key;
      } else if (node.kind === "seq") {
        const item: SpecNode | undefined = node.items[Number(seg)];
        if (item === undefined) return null;
        node = item;
      } else return null;
    }
  }
  if (e.propertyName !== undefined) {
    const entry = node.kind === "map" ? node.get(e.propertyName) : undefined;
    return entry === undefined ? null : { node: entry.key, key: null };
  }
  return { node, key };
}

type JsonKind = "null" | "boolean" | "number" | "string" | "array" | "object" | "other";

function jsonKind(node: SpecNode): JsonKind {
  if (node.kind === "map") return "object";
  if (node.kind === "seq") return "array";
  const v = node.value;
  if (v === null) return "null";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "string") return "string";
  if (typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat) return "number";
  return "string"; // a timestamp is its text in JSON
}

function jsonKindOf(v: unknown): JsonKind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  switch (typeof v) {
    case "boolean":
      return "boolean";
    case "number":
      return "number";
    case "string":
      return "string";
    case "object":
      return "object";
    default:
      return "other";
  }
}

function typeList(t: unknown): string {
  const types = Array.isArray(t) ? t.map(String) : String(t).split(",");
  return types.map((x) => `'${x}'`).join(", ");
}

function numberText(n: unknown): string {
  if (typeof n !== "number") return String(n);
  return Number.isInteger(n) ? String(n) : floatRepr(n);
}

/** A Python repr of a list of JSON scalars (the allowed values of an enum). */
function jsonListRepr(values: unknown): string {
  if (!Array.isArray(values)) return String(values);
  return `[${values.map((v) => (typeof v === "string" ? strRepr(v) : v === null ? "None" : String(v))).join(", ")}]`;
}
