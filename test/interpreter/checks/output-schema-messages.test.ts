// output_schema messages (docs/reference/runtime.md §4.3): one row per message of the table plus the jsonschema
// 4.x wordings we chose for the rest, with Python reprs (True, None, 1.0, {'a': 1}); integral
// floats and booleans against numeric types; the `output_schema violation: ` prefix.
import { describe, expect, it } from "vitest";
import { checkOutputSchema } from "../../../interpreter/checks/output-schema";
import { parseJson } from "../../../stdlib/values/json";
import { schemaMessages, schemaOf } from "./support";

/** [schema, result, messages] — schema and result as JSON text. */
type Row = readonly [string, string, readonly string[]];

function table(rows: readonly Row[]): void {
  for (const [schema, result, messages] of rows) {
    it(`${schema} on ${result}`, () => {
      expect(schemaMessages(schema, result)).toEqual(messages);
    });
  }
}

describe("output_schema: the prefix", () => {
  it("every message is prefixed", () => {
    expect(checkOutputSchema(parseJson("1"), schemaOf('{"type": "string"}'))).toEqual([
      "output_schema violation: 1 is not of type 'string'",
    ]);
  });
});

describe("output_schema: type", () => {
  table([
    ['{"type": "string"}', "1", ["1 is not of type 'string'"]],
    ['{"type": "string"}', '"x"', []],
    ['{"type": ["string", "null"]}', "1.5", ["1.5 is not of type 'string', 'null'"]],
    ['{"type": ["string", "null"]}', "null", []],
    ['{"type": "object"}', "[true, null, 1.0]", ["[True, None, 1.0] is not of type 'object'"]],
    ['{"type": "array"}', '{"a": 1, "b": [false]}', ["{'a': 1, 'b': [False]} is not of type 'array'"]],
    ['{"type": "integer"}', "2.0", []],
    ['{"type": "integer"}', "-0.0", []],
    ['{"type": "integer"}', "2.5", ["2.5 is not of type 'integer'"]],
    ['{"type": "integer"}', "1e+16", []],
    ['{"type": "integer"}', "true", ["True is not of type 'integer'"]],
    ['{"type": "integer"}', "Infinity", ["inf is not of type 'integer'"]],
    ['{"type": "integer"}', "123456789012345678901234567890", []],
    ['{"type": "number"}', "false", ["False is not of type 'number'"]],
    ['{"type": "number"}', "7", []],
    ['{"type": "number"}', "NaN", []],
    ['{"type": "boolean"}', "0", ["0 is not of type 'boolean'"]],
    ['{"type": "null"}', '""', ["'' is not of type 'null'"]],
    ['{"type": "null"}', '"it\'s"', ["\"it's\" is not of type 'null'"]],
  ]);
});

describe("output_schema: object keywords", () => {
  table([
    [
      '{"required": ["a", "b", "c"]}',
      '{"b": null}',
      ["'a' is a required property", "'c' is a required property"],
    ],
    ['{"required": ["a"]}', "[1]", []],
    ['{"properties": {"a": {"type": "string"}}}', '{"a": 1}', ["1 is not of type 'string'"]],
    ['{"properties": {"a": {"type": "string"}}}', "{}", []],
    [
      '{"properties": {"a": {}}, "additionalProperties": false}',
      '{"a": 1, "z": 2, "b": 3}',
      ["Additional properties are not allowed ('b', 'z' were unexpected)"],
    ],
    [
      '{"properties": {"a": {}}, "additionalProperties": false}',
      '{"a": 1, "B": 2}',
      ["Additional properties are not allowed ('B' was unexpected)"],
    ],
    [
      '{"additionalProperties": {"type": "integer"}}',
      '{"a": 1, "b": "x", "c": 2.5}',
      ["'x' is not of type 'integer'", "2.5 is not of type 'integer'"],
    ],
    [
      '{"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}',
      '{"x-a": 1, "b": 2, "a": 3}',
      ["1 is not of type 'string'", "'a', 'b' do not match any of the regexes: '^x-'"],
    ],
    [
      '{"patternProperties": {"^x-": true, "^y": true}, "additionalProperties": false}',
      '{"z": 1}',
      ["'z' does not match any of the regexes: '^x-', '^y'"],
    ],
    ['{"patternProperties": {"é$": {"const": 1}}}', '{"café": 2, "cafe": 3}', ["1 was expected"]],
    [
      '{"properties": {"a": true}, "unevaluatedProperties": false}',
      '{"a": 1, "c": 2, "b": 3}',
      ["Unevaluated properties are not allowed ('b', 'c' were unexpected)"],
    ],
    [
      '{"allOf": [{"properties": {"a": true}}], "unevaluatedProperties": false}',
      '{"a": 1, "b": 2}',
      ["Unevaluated properties are not allowed ('b' was unexpected)"],
    ],
    [
      '{"unevaluatedProperties": {"type": "string"}}',
      '{"a": "x", "b": 1, "c": 2}',
      ["Unevaluated properties are not valid under the given schema ('b', 'c' were unevaluated and invalid)"],
    ],
    ['{"minProperties": 1}', "{}", ["{} should be non-empty"]],
    ['{"minProperties": 2}', '{"a": 1}', ["{'a': 1} does not have enough properties"]],
    ['{"maxProperties": 0}', '{"a": 1}', ["{'a': 1} is expected to be empty"]],
    ['{"maxProperties": 1}', '{"a": 1, "b": 2}', ["{'a': 1, 'b': 2} has too many properties"]],
    [
      '{"dependentRequired": {"card": ["billing", "cvv"]}}',
      '{"card": 1, "cvv": 2}',
      ["'billing' is a dependency of 'card'"],
    ],
    ['{"dependentRequired": {"card": ["billing"]}}', '{"cvv": 2}', []],
    ['{"dependentSchemas": {"a": {"required": ["b"]}}}', '{"a": 1}', ["'b' is a required property"]],
    ['{"propertyNames": {"maxLength": 2}}', '{"ab": 1, "abc": 2}', ["'abc' is too long"]],
  ]);
});

describe("output_schema: enum and const (jsonschema equality: 1 == 1.0, True != 1)", () => {
  table([
    ['{"enum": ["a", 1, null]}', '"b"', ["'b' is not one of ['a', 1, None]"]],
    ['{"enum": ["a", 1, null]}', "1.0", []],
    ['{"enum": [1]}', "true", ["True is not one of [1]"]],
    ['{"enum": [0]}', "false", ["False is not one of [0]"]],
    ['{"enum": [true]}', "1", ["1 is not one of [True]"]],
    ['{"enum": [[1, true]]}', "[1.0, true]", []],
    ['{"enum": [[1, true]]}', "[1, 1]", ["[1, 1] is not one of [[1, True]]"]],
    ['{"enum": [{"a": [0]}]}', '{"a": [false]}', ["{'a': [False]} is not one of [{'a': [0]}]"]],
    ['{"const": {"a": 1}}', '{"a": 1.0}', []],
    ['{"const": {"a": 1}}', '{"a": 1, "b": 2}', ["{'a': 1} was expected"]],
    ['{"const": false}', "0", ["False was expected"]],
    ['{"const": 0.5}', "0.25", ["0.5 was expected"]],
    ['{"const": null}', '"null"', ["None was expected"]],
  ]);
});

describe("output_schema: numbers (never booleans)", () => {
  table([
    ['{"minimum": 3}', "2", ["2 is less than the minimum of 3"]],
    ['{"minimum": 3}', "2.5", ["2.5 is less than the minimum of 3"]],
    ['{"minimum": 3}', "3", []],
    ['{"minimum": 3}', "false", []],
    ['{"minimum": 0.5}', "0", ["0 is less than the minimum of 0.5"]],
    ['{"maximum": 3}', "3.5", ["3.5 is greater than the maximum of 3"]],
    ['{"maximum": 3}', "3.0", []],
    ['{"maximum": 3}', "99999999999999999999", ["99999999999999999999 is greater than the maximum of 3"]],
    ['{"exclusiveMinimum": 3}', "3", ["3 is less than or equal to the minimum of 3"]],
    ['{"exclusiveMinimum": 3}', "3.0000001", []],
    ['{"exclusiveMaximum": 3}', "3.0", ["3.0 is greater than or equal to the maximum of 3"]],
    ['{"minimum": 3, "maximum": 1}', "NaN", []],
    ['{"multipleOf": 2}', "7", ["7 is not a multiple of 2"]],
    ['{"multipleOf": 2}', "8", []],
    ['{"multipleOf": 2}', "8.0", []],
    ['{"multipleOf": 2}', "7.5", ["7.5 is not a multiple of 2"]],
    ['{"multipleOf": 2}', "true", []],
    ['{"multipleOf": 0.5}', "1.5", []],
    ['{"multipleOf": 0.5}', "1.25", ["1.25 is not a multiple of 0.5"]],
    // As Python: 0.3 / 0.1 == 2.9999999999999996.
    ['{"multipleOf": 0.1}', "0.3", ["0.3 is not a multiple of 0.1"]],
    // The quotient overflows: decided exactly, as jsonschema's Fraction fallback.
    ['{"multipleOf": 0.5}', "1e+308", []],
    ['{"multipleOf": 0.1}', "1e+308", ["1e+308 is not a multiple of 0.1"]],
    ['{"multipleOf": 0.5}', `1${"0".repeat(400)}`, []],
    [
      '{"multipleOf": 2}',
      "12345678901234567890123456789",
      ["12345678901234567890123456789 is not a multiple of 2"],
    ],
    ['{"multipleOf": 2}', "NaN", ["nan is not a multiple of 2"]],
  ]);
});

describe("output_schema: strings (lengths in code points; ECMAScript patterns, search)", () => {
  table([
    ['{"minLength": 1}', '""', ["'' should be non-empty"]],
    ['{"minLength": 3}', '"ab"', ["'ab' is too short"]],
    ['{"minLength": 2}', '"😀"', ["'😀' is too short"]],
    ['{"maxLength": 1}', '"😀"', []],
    ['{"maxLength": 2}', '"abc"', ["'abc' is too long"]],
    ['{"maxLength": 0}', '"a"', ["'a' is expected to be empty"]],
    ['{"minLength": 5}', "12", []],
    ['{"pattern": "^[a-z]+$"}', '"abC"', ["'abC' does not match '^[a-z]+$'"]],
    ['{"pattern": "b"}', '"abc"', []],
    ['{"pattern": "^\\\\p{Lu}"}', '"Émile"', []],
    ['{"pattern": "^.$"}', '"😀"', []],
    ['{"pattern": "\\\\d"}', '"x\\n"', ["'x\\n' does not match '\\\\d'"]],
    ['{"pattern": "x"}', "5", []],
  ]);
});

describe("output_schema: arrays", () => {
  table([
    [
      '{"items": {"type": "integer"}}',
      '[1, "a", 2.0, 2.5]',
      ["'a' is not of type 'integer'", "2.5 is not of type 'integer'"],
    ],
    [
      '{"prefixItems": [{"type": "string"}, {"type": "integer"}]}',
      "[1, 2, 3]",
      ["1 is not of type 'string'"],
    ],
    [
      '{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}',
      '["a", "b", 3]',
      ["'b' is not of type 'integer'"],
    ],
    [
      '{"prefixItems": [{}], "items": false}',
      "[1, 2, 3]",
      ["Expected at most 1 item but found 2 extra: [2, 3]"],
    ],
    [
      '{"prefixItems": [{}, {}], "items": false}',
      '[1, 2, "x"]',
      ["Expected at most 2 items but found 1 extra: 'x'"],
    ],
    ['{"items": false}', "[null]", ["Expected at most 0 items but found 1 extra: None"]],
    ['{"items": false}', "[]", []],
    [
      '{"contains": {"type": "string"}}',
      "[1, 2]",
      ["[1, 2] does not contain items matching the given schema"],
    ],
    ['{"contains": {"type": "string"}}', '[1, "a"]', []],
    [
      '{"contains": {"type": "string"}, "minContains": 2}',
      '[1, "a"]',
      ["Too few items match the given schema (expected at least 2 but only 1 matched)"],
    ],
    [
      '{"contains": {"type": "string"}, "maxContains": 1}',
      '["a", "b"]',
      ["Too many items match the given schema (expected at most 1)"],
    ],
    ['{"contains": {"type": "string"}, "minContains": 0}', "[1]", []],
    ['{"minItems": 1}', "[]", ["[] should be non-empty"]],
    ['{"minItems": 2}', "[1]", ["[1] is too short"]],
    ['{"maxItems": 1}', "[1, 2]", ["[1, 2] is too long"]],
    ['{"maxItems": 0}', "[1]", ["[1] is expected to be empty"]],
    ['{"uniqueItems": true}', "[1, 2, 1.0]", ["[1, 2, 1.0] has non-unique elements"]],
    ['{"uniqueItems": true}', "[1, true, 0, false]", []],
    ['{"uniqueItems": true}', '[{"a": 1}, {"a": 1.0}]', ["[{'a': 1}, {'a': 1.0}] has non-unique elements"]],
    ['{"uniqueItems": false}', "[1, 1]", []],
    [
      '{"prefixItems": [true], "unevaluatedItems": false}',
      '[1, "x", null]',
      ["Unevaluated items are not allowed ('x', None were unexpected)"],
    ],
  ]);
});

describe("output_schema: applicators", () => {
  table([
    [
      '{"allOf": [{"type": "string"}, {"minimum": 2}]}',
      "1",
      ["1 is not of type 'string'", "1 is less than the minimum of 2"],
    ],
    [
      '{"anyOf": [{"type": "string"}, {"type": "null"}]}',
      "1",
      ["1 is not valid under any of the given schemas"],
    ],
    ['{"anyOf": [{"type": "string"}, {"type": "null"}]}', "null", []],
    [
      '{"oneOf": [{"type": "string"}, {"type": "null"}]}',
      "1",
      ["1 is not valid under any of the given schemas"],
    ],
    ['{"oneOf": [{"type": "integer"}, {"type": "string"}]}', "1", []],
    [
      '{"oneOf": [{"type": "integer"}, {"minimum": 0}]}',
      "1",
      ["1 is valid under each of {'minimum': 0}, {'type': 'integer'}"],
    ],
    [
      '{"oneOf": [{"type": "string"}, {"type": "integer"}, true, {"maximum": 5}]}',
      "3",
      ["3 is valid under each of True, {'maximum': 5}, {'type': 'integer'}"],
    ],
    ['{"not": {"type": "string"}}', '"x"', ["'x' should not be valid under {'type': 'string'}"]],
    ['{"not": {"enum": [1, [true]]}}', "[true]", ["[True] should not be valid under {'enum': [1, [True]]}"]],
    ['{"not": {"type": "string"}}', "1", []],
    [
      '{"if": {"type": "integer"}, "then": {"minimum": 10}, "else": {"type": "string"}}',
      "5",
      ["5 is less than the minimum of 10"],
    ],
    [
      '{"if": {"type": "integer"}, "then": {"minimum": 10}, "else": {"type": "string"}}',
      "null",
      ["None is not of type 'string'"],
    ],
    ['{"if": {"type": "integer"}, "then": {"minimum": 10}}', "null", []],
    ['{"then": {"type": "string"}, "else": {"type": "string"}}', "1", []],
    ["{}", '{"anything": [1]}', []],
  ]);
});

describe("output_schema: boolean schemas and $ref", () => {
  table([
    [
      '{"properties": {"a": false, "b": true}}',
      '{"a": {"x": [1.5]}, "b": 1}',
      ["False schema does not allow {'x': [1.5]}"],
    ],
    ['{"items": false, "prefixItems": [false]}', "[1]", ["False schema does not allow 1"]],
    [
      '{"$defs": {"name": {"type": "string", "minLength": 2}}, "properties": {"n": {"$ref": "#/$defs/name"}}}',
      '{"n": "a"}',
      ["'a' is too short"],
    ],
    [
      '{"definitions": {"pos": {"exclusiveMinimum": 0}}, "items": {"$ref": "#/definitions/pos"}}',
      "[1, 0, -1]",
      ["0 is less than or equal to the minimum of 0", "-1 is less than or equal to the minimum of 0"],
    ],
    [
      '{"type": "object", "properties": {"label": {"type": "string"}, "kids": {"items": {"$ref": "#"}}}}',
      '{"label": "a", "kids": [{"label": 1}, {"kids": [[]]}]}',
      ["1 is not of type 'string'", "[] is not of type 'object'"],
    ],
    [
      '{"$defs": {"a~b": {"const": 1}, "c/d": {"const": 2}}, "allOf": [{"$ref": "#/$defs/a~0b"}, {"$ref": "#/$defs/c~1d"}]}',
      "3",
      ["1 was expected", "2 was expected"],
    ],
    ['{"$defs": {"x y": {"const": 1}}, "$ref": "#/$defs/x%20y"}', "3", ["1 was expected"]],
    ['{"$ref": "https://example.com/schema"}', "3", []],
    ['{"$ref": "#/$defs/missing"}', "3", []],
  ]);
});

describe("output_schema: annotations and unknown keywords are ignored", () => {
  table([
    ['{"format": "email", "title": "t", "description": "d", "x-custom": {"type": "string"}}', "1", []],
    ['{"format": "date-time"}', '"not a date"', []],
    ['{"minContains": 3}', "[1]", []],
    ['{"then": false}', "1", []],
  ]);
});
