// Properties of the result checks (fast-check): on arbitrary JSON values and arbitrary small
// schemas/contracts built from the supported keywords, neither check throws, every violation
// carries its prefix, and the validator agrees with itself: `not S` fails exactly when `S`
// passes, `anyOf [S]` passes exactly when `S` does, and `allOf [S]` reports what `S` reports.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../../../checker/base/json";
import { checkSpec } from "../../../checker/check-spec";
import type { CheckedSpec } from "../../../checker/ir/types";
import { checkContract } from "../../../interpreter/checks/contract";
import { checkOutputSchema } from "../../../interpreter/checks/output-schema";
import { makeDict } from "../../../stdlib/values/dict";
import { PyDict, PyFloat, type PyValue } from "../../../stdlib/values/value";

const RUNS = 300;

const NAMES = ["a", "b", "c", "é", "__proto__", "constructor", "1"];

/** Arbitrary results: the JSON kinds of the value model, floats (NaN, ±inf, -0.0) kept apart from ints. */
const pyValue: fc.Arbitrary<PyValue> = fc.letrec<{ value: PyValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -5, max: 5 }),
    fc
      .bigInt({ min: -(2n ** 70n), max: 2n ** 70n })
      .map((b) => (Number.isSafeInteger(Number(b)) ? Number(b) : b)),
    fc.double().map((x) => new PyFloat(x)),
    fc.constantFrom(...NAMES, "", "😀x", "a'b\"c\n"),
    fc.array(tie("value"), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.constantFrom(...NAMES), tie("value")), { maxLength: 4 })
      .map((entries) => makeDict(entries)),
  ),
})).value;

function object(entries: ReadonlyArray<readonly [string, JsonValue]>): JsonObject {
  const out = Object.create(null) as Record<string, JsonValue>;
  for (const [k, v] of entries) out[k] = v;
  return out;
}

const jsonLiteral: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, 1.5, -2.5),
  fc.constantFrom(...NAMES),
  fc.array(fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom(...NAMES), fc.boolean()), {
    maxLength: 3,
  }),
);

const TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"];
const PATTERNS = ["^a", "é$", "\\d", "^(a|b)+$", "[", "(?<x>c)"];

/** Arbitrary schemas from the supported keywords (small, possibly self-referring through $ref). */
const schema: fc.Arbitrary<JsonValue> = fc.letrec<{ schema: JsonValue }>((tie) => {
  const sub = tie("schema");
  const keyword: fc.Arbitrary<readonly [string, JsonValue]> = fc.oneof(
    fc.tuple(fc.constant("type"), fc.oneof(fc.constantFrom(...TYPES), fc.subarray(TYPES, { minLength: 1 }))),
    fc.tuple(fc.constant("enum"), fc.array(jsonLiteral, { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constant("const"), jsonLiteral),
    fc.tuple(
      fc.constantFrom("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"),
      fc.constantFrom(-1, 0, 1, 2.5),
    ),
    fc.tuple(fc.constant("multipleOf"), fc.constantFrom(1, 2, 0.5, 0.1)),
    fc.tuple(
      fc.constantFrom(
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "minContains",
        "maxContains",
      ),
      fc.integer({ min: 0, max: 3 }),
    ),
    fc.tuple(fc.constant("pattern"), fc.constantFrom(...PATTERNS)),
    fc.tuple(fc.constant("uniqueItems"), fc.boolean()),
    fc.tuple(fc.constantFrom("required"), fc.subarray(NAMES)),
    fc.tuple(
      fc.constant("dependentRequired"),
      fc.constantFrom(...NAMES).map((n) => object([[n, ["a", "b"]]])),
    ),
    fc.tuple(
      fc.constantFrom("properties", "patternProperties", "dependentSchemas", "$defs"),
      fc.array(fc.tuple(fc.constantFrom(...NAMES, ...PATTERNS), sub), { maxLength: 3 }).map(object),
    ),
    fc.tuple(
      fc.constantFrom(
        "items",
        "contains",
        "not",
        "if",
        "then",
        "else",
        "additionalProperties",
        "unevaluatedProperties",
        "unevaluatedItems",
        "propertyNames",
      ),
      sub,
    ),
    fc.tuple(fc.constantFrom("allOf", "anyOf", "oneOf", "prefixItems"), fc.array(sub, { maxLength: 3 })),
    fc.tuple(
      fc.constant("$ref"),
      fc.constantFrom("#", "#/$defs/a", "#/$defs/b", "#/definitions/x", "#/properties/a", "other.json"),
    ),
    fc.tuple(fc.constantFrom("format", "title", "x-unknown"), jsonLiteral),
  );
  return {
    schema: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { arbitrary: fc.boolean(), weight: 1 },
      { arbitrary: fc.array(keyword, { minLength: 1, maxLength: 5 }).map(object), weight: 4 },
    ),
  };
}).schema;

const objectSchema: fc.Arbitrary<JsonObject> = schema.map((s) =>
  typeof s === "boolean" ? object(s ? [] : [["not", object([])]]) : (s as JsonObject),
);

function withoutPrefix(messages: readonly string[]): string[] {
  return messages.map((m) => m.replace(/^output_schema violation: /, ""));
}

describe("output_schema: properties", () => {
  it("never throws; every violation is prefixed", () => {
    fc.assert(
      fc.property(objectSchema, pyValue, (s, v) => {
        for (const m of checkOutputSchema(v, s)) expect(m.startsWith("output_schema violation: ")).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it("`not S` fails exactly when S passes; `anyOf [S]` passes exactly when S does (when S has no root-relative $ref)", () => {
    fc.assert(
      fc.property(objectSchema, pyValue, (s, v) => {
        // Wrapping S moves the document root, so `#/…` inside S would name other schemas.
        fc.pre(!JSON.stringify(s).includes('"$ref"'));
        const passes = checkOutputSchema(v, s).length === 0;
        expect(checkOutputSchema(v, object([["not", s]])).length === 0).toBe(!passes);
        expect(checkOutputSchema(v, object([["anyOf", [s]]])).length === 0).toBe(passes);
      }),
      { numRuns: RUNS },
    );
  });

  it("`allOf [S]` reports exactly what S reports (when S has no root-relative $ref)", () => {
    fc.assert(
      fc.property(objectSchema, pyValue, (s, v) => {
        fc.pre(!JSON.stringify(s).includes('"$ref"'));
        expect(withoutPrefix(checkOutputSchema(v, object([["allOf", [s]]])))).toEqual(
          withoutPrefix(checkOutputSchema(v, s)),
        );
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- contracts ----

const PLAIN = ["string", "number", "integer", "boolean", "array", "object"];

interface FieldDef {
  type: string;
  required?: boolean;
  values?: JsonValue[];
  items?: FieldDef;
}

const fieldDef: fc.Arbitrary<FieldDef> = fc.letrec<{ def: FieldDef }>((tie) => ({
  def: fc
    .record(
      {
        type: fc.constantFrom(...PLAIN, "C0", "C1"),
        required: fc.boolean(),
        items: fc.option(tie("def"), { nil: undefined, depthSize: "small" }),
        values: fc.option(fc.constant(true), { nil: undefined }),
      },
      { requiredKeys: ["type"] },
    )
    .map((d) => {
      const out: FieldDef = { type: d.type };
      if (d.required !== undefined) out.required = d.required;
      if (d.type === "array" && d.items !== undefined) out.items = d.items;
      if (d.values && d.type === "string") out.values = ["a", "b"];
      if (d.values && d.type === "integer") out.values = [1, 2];
      return out;
    }),
})).def;

const contractFields = fc.dictionary(fc.constantFrom(...NAMES.filter((n) => n !== "1")), fieldDef, {
  maxKeys: 4,
});

const contractSpec: fc.Arbitrary<CheckedSpec> = fc.tuple(contractFields, contractFields).map(([c0, c1]) => {
  const text = JSON.stringify({
    version: "0.2",
    contracts: { C0: c0, C1: c1 },
    flows: { main: { input: {}, steps: [{ id: "s", intent: "x", output_contract: "C0" }] } },
  });
  const ir = checkSpec(text).ir;
  if (ir === null) throw new Error(`generated spec is invalid: ${text}`);
  return ir;
});

describe("contract: properties", () => {
  it("never throws; every violation is prefixed", () => {
    fc.assert(
      fc.property(contractSpec, pyValue, (spec, v) => {
        const contract = spec.contracts.get("C0");
        if (contract === undefined) throw new Error("no C0");
        for (const m of checkContract(v, contract, spec))
          expect(m.startsWith("contract violation: ")).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it("a non-object result gives exactly one violation", () => {
    fc.assert(
      fc.property(contractSpec, pyValue, (spec, v) => {
        const contract = spec.contracts.get("C0");
        if (contract === undefined) throw new Error("no C0");
        fc.pre(!(v instanceof PyDict));
        expect(checkContract(v, contract, spec)).toHaveLength(1);
      }),
      { numRuns: RUNS },
    );
  });
});
