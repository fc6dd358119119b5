// The yes/no form of the result checks: conformsToContract / conformsToOutputSchema (and the
// validator's `conforms`) answer "conforms" exactly when the full check finds no violation, on
// random results that are meant to be near the contract or schema (most fields right, some wrong,
// some missing), and when the schema check runs out of its budget.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkContract, conformsToContract } from "../../../interpreter/checks/contract";
import { checkOutputSchema, conformsToOutputSchema } from "../../../interpreter/checks/output-schema";
import { SchemaValidator } from "../../../interpreter/checks/schema/validator";
import { parseJson } from "../../../stdlib/values/json";
import { checkedSpec, contractOf, schemaOf } from "./support";

const SPEC = checkedSpec(`version: "0.2"
contracts:
  Finding:
    id:       {type: integer}
    severity: {type: string, values: [low, medium, high]}
    file:     {type: string, required: false}
  Review:
    verdict:  {type: string, values: [approve, reject]}
    score:    {type: number}
    ok:       {type: boolean, required: false}
    findings: {type: array, items: {type: Finding}}
    meta:     {type: object, required: false}
    lead:     {type: Finding, required: false}
    tags:     {type: array, items: {type: string}, required: false}
functions:
  f:
    mode: infer
    intent: "x"
    input: {}
    output: Review
flows:
  main:
    input: {}
    steps:
      - {id: s, function: f}
`);
const REVIEW = contractOf(SPEC, "Review");

/** Any small JSON text (the wrong kinds a field may get). */
const anyJson = fc.oneof(
  fc.constantFrom(
    "null",
    "true",
    "0",
    "1.5",
    "-3",
    "2.0",
    '"low"',
    '"approve"',
    '"x"',
    "[]",
    "{}",
    '["a", 1]',
  ),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
);

/** A field's text: right most of the time, else any JSON. */
const field = (right: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof({ weight: 12, arbitrary: right }, { weight: 1, arbitrary: anyJson });

const finding = fc
  .record(
    {
      id: field(fc.integer({ min: -5, max: 5 }).map(String)),
      severity: field(fc.constantFrom('"low"', '"medium"', '"high"')),
      file: field(fc.constantFrom('"a.ts"', "null")),
    },
    { requiredKeys: ["id", "severity"] },
  )
  .map(objectText);

const review = fc
  .record(
    {
      verdict: field(fc.constantFrom('"approve"', '"reject"')),
      score: field(fc.constantFrom("0", "1.5", "7")),
      ok: field(fc.constantFrom("true", "false", "null")),
      findings: field(fc.array(finding, { maxLength: 3 }).map((items) => `[${items.join(", ")}]`)),
      meta: field(fc.constantFrom("{}", '{"k": 1}', "null")),
      lead: field(finding),
      tags: field(
        fc.array(fc.constantFrom('"a"', '"b"', "3"), { maxLength: 3 }).map((t) => `[${t.join(", ")}]`),
      ),
    },
    { requiredKeys: ["verdict", "score", "findings"] },
  )
  .map(objectText);

/** A result near the contract, or with a required field left out. */
const nearReview = fc.oneof(
  { weight: 5, arbitrary: review },
  {
    weight: 1,
    arbitrary: fc
      .tuple(review, fc.constantFrom("verdict", "score", "findings"))
      .map(([text, name]) => text.replace(new RegExp(`"${name}": `), '"other": ')),
  },
);

function objectText(fields: Readonly<Record<string, string>>): string {
  return `{${Object.entries(fields)
    .map(([k, v]) => `${JSON.stringify(k)}: ${v}`)
    .join(", ")}}`;
}

describe("conformsToContract", () => {
  it("says conforms exactly when checkContract finds no violation", () => {
    let conforming = 0;
    let violating = 0;
    fc.assert(
      fc.property(
        fc.oneof({ weight: 9, arbitrary: nearReview }, { weight: 1, arbitrary: anyJson }),
        (text) => {
          const result = parseJson(text);
          const violations = checkContract(result, REVIEW, SPEC);
          expect(conformsToContract(result, REVIEW, SPEC)).toBe(violations.length === 0);
          if (violations.length === 0) conforming++;
          else violating++;
        },
      ),
      { numRuns: 600 },
    );
    // Both answers were asked for (the generator is not one-sided).
    expect(conforming).toBeGreaterThan(20);
    expect(violating).toBeGreaterThan(20);
  });
});

const SCHEMAS = [
  `{"type": "object", "required": ["a"], "properties": {"a": {"type": "integer", "minimum": 0}, "b": {"type": "string", "pattern": "^x"}}, "additionalProperties": false}`,
  `{"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "integer"}}], "not": {"const": "bad"}}`,
  `{"type": "object", "properties": {"a": true}, "unevaluatedProperties": {"type": "integer"}}`,
  `{"$defs": {"n": {"type": "number", "exclusiveMaximum": 3}}, "type": "array", "prefixItems": [{"$ref": "#/$defs/n"}], "items": {"type": "string"}, "minItems": 1}`,
  `{"if": {"type": "object", "required": ["kind"]}, "then": {"properties": {"kind": {"enum": ["a", "b"]}}}, "else": {"type": ["array", "null", "boolean"]}}`,
  `{"oneOf": [{"type": "integer"}, {"type": "number", "multipleOf": 0.5}], "maximum": 10}`,
];

const schemaValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(
    '{"a": 1}',
    '{"a": -1}',
    '{"a": 1, "b": "xy"}',
    '{"a": 1, "b": "y"}',
    '{"a": 1, "c": 2}',
    '"bad"',
    "[1, 2]",
    '[1, "x"]',
    '[2.5, "x", "y"]',
    '[4, "x"]',
    '{"kind": "a"}',
    '{"kind": "c"}',
    "1.5",
    "2",
    "11",
    "null",
  ),
);

describe("conformsToOutputSchema", () => {
  it("says conforms exactly when checkOutputSchema finds no violation", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SCHEMAS), schemaValue, (schemaText, text) => {
        const schema = schemaOf(schemaText);
        const result = parseJson(text);
        const violations = checkOutputSchema(result, schema);
        expect(conformsToOutputSchema(result, schema)).toBe(violations.length === 0);
      }),
      { numRuns: 1000 },
    );
  });

  it("does not conform when the check runs out of its budget, as the full check reports it", () => {
    const schema = schemaOf(`{"type": "array", "items": {"type": "integer"}}`);
    const value = parseJson(`[${Array.from({ length: 50 }, (_, i) => i).join(", ")}]`);
    const small = new SchemaValidator(schema, 10);
    expect(small.errors(value).length).toBeGreaterThan(0);
    expect(small.conforms(value)).toBe(false);
    // With room enough, the same value conforms both ways (the budget is fresh for every check).
    const large = new SchemaValidator(schema, 1000);
    expect(large.conforms(value)).toBe(true);
    expect(large.errors(value)).toEqual([]);
  });
});
