// `specJsonSchema()`: a JSON Schema (draft 2020-12) of the spec format for editors
// (yaml-language-server, VS Code YAML), generated from the declarative description in
// spec-schema.ts — the same one the structure phase checks with.
//
// Shape of the result: the root accepts version "0.1", "0.2" or "0.3"; `allOf` holds one `if`/`then`
// per version that applies the complete schema of that version (`$defs` has every mapping kind
// once per version: `v0.1-step`, `v0.2-step`, …). So 0.2-only keys are rejected in a 0.1 file
// exactly as the checker does it, and editors still offer every key's description.
// What a JSON Schema cannot say is left to the checker: YAML 1.1 typing (editors read YAML 1.2),
// integral floats for integers are accepted by both, and all semantic rules (SPEC-*, EXPR-*).
import type { JsonObject, JsonValue } from "../base/json";
import type { Version } from "../base/version";
import { conditionalRequired, forVersion, resolveShape } from "./resolve-shape";
import { SHAPES, VERSIONS } from "./spec-schema";
import type { ShapeName, ValueSpec } from "./spec-schema-types";

const SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema";

/**
 * The schema's stable `$id`: where the repository publishes it (`schema/stratum.schema.json`, kept
 * equal to `stratumc schema` by test/cli/init-cli.test.ts). Editors may use it as the URL.
 */
export const SPEC_SCHEMA_ID =
  "https://raw.githubusercontent.com/stratumc/stratumc/main/schema/stratum.schema.json";

function defName(version: Version, shape: ShapeName): string {
  return `v${version}-${shape}`;
}

function valueSchema(spec: ValueSpec, version: Version): JsonObject {
  switch (spec.kind) {
    case "version":
      return { type: "string", const: version };
    case "string":
      return {
        type: "string",
        ...(spec.nonEmpty === true ? { minLength: 1 } : {}),
        ...(spec.pattern !== undefined ? { pattern: spec.pattern } : {}),
      };
    case "nullableString":
      return { type: ["string", "null"] };
    case "integer":
      return {
        type: "integer",
        minimum: spec.minimum,
        ...(spec.maximum !== undefined ? { maximum: spec.maximum } : {}),
      };
    case "number":
      return { type: "number", minimum: spec.minimum };
    case "nullableInteger":
      return { type: ["integer", "null"], minimum: spec.minimum };
    case "enumOrInteger":
      return {
        oneOf: [
          { type: "string", enum: [...spec.values] },
          { type: "integer", minimum: spec.minimum },
        ],
      };
    case "countOrSeqOf":
      return {
        oneOf: [
          { type: "integer", minimum: spec.minimum },
          { type: "array", items: valueSchema(spec.item, version), minItems: 1 },
        ],
      };
    case "stringOrSeqOf":
      return {
        oneOf: [{ type: "array", items: valueSchema(spec.item, version) }, { type: "string" }],
      };
    case "boolean":
      return { type: "boolean" };
    case "enum":
      return { type: "string", enum: [...forVersion(spec.values, version)] };
    case "any":
      return {};
    case "freeMapping":
      return { type: "object" };
    case "shape":
      return { $ref: `#/$defs/${defName(version, spec.shape)}` };
    case "mapOf":
      return { type: "object", additionalProperties: valueSchema(spec.value, version) };
    case "seqOf":
      return {
        type: "array",
        items: valueSchema(spec.item, version),
        ...(spec.nonEmpty === true ? { minItems: 1 } : {}),
      };
  }
}

function shapeSchema(name: ShapeName, version: Version): JsonObject {
  const shape = resolveShape(name, version);
  const properties = Object.create(null) as Record<string, JsonValue>;
  for (const key of shape.keys.values()) {
    properties[key.name] = { description: key.description, ...valueSchema(key.value, version) };
  }
  const conditions = conditionalRequired(shape).map(
    (c): JsonObject => ({
      if: { properties: { [c.when.key]: { enum: [...c.when.in] } }, required: [c.when.key] },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword (these objects are never awaited)
      then: { properties: { [c.key]: true }, required: [c.key] },
    }),
  );
  return {
    title: shape.spec.title,
    description: shape.spec.description,
    type: "object",
    properties,
    ...(shape.required.length > 0 ? { required: [...shape.required] } : {}),
    additionalProperties: shape.spec.otherKeys === "any",
    ...(conditions.length > 0 ? { allOf: conditions } : {}),
  };
}

/** The JSON Schema of the `.stratum.yaml` format (a fresh object on every call). */
export function specJsonSchema(): JsonObject {
  const defs = Object.create(null) as Record<string, JsonValue>;
  for (const version of VERSIONS) {
    for (const name of Object.keys(SHAPES) as ShapeName[])
      defs[defName(version, name)] = shapeSchema(name, version);
  }
  const versionKey = SHAPES.root.keys.find((k) => k.name === "version");
  return {
    $schema: SCHEMA_URI,
    $id: SPEC_SCHEMA_ID,
    title: "Stratum spec (.stratum.yaml)",
    description:
      "A stratumc / stratum-mcp spec: contracts, functions, flows and (0.2) the workflow block. Validate with `stratumc check` for the semantic rules.",
    type: "object",
    required: ["version"],
    properties: {
      version: { description: versionKey?.description ?? "", type: "string", enum: [...VERSIONS] },
    },
    allOf: VERSIONS.map(
      (version): JsonObject => ({
        if: { properties: { version: { const: version } }, required: ["version"] },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword (these objects are never awaited)
        then: { $ref: `#/$defs/${defName(version, "root")}` },
      }),
    ),
    $defs: defs,
  };
}
