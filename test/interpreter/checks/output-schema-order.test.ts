// output_schema error order (docs/reference/runtime.md §4.3): keywords in the order the schema writes them,
// properties in the schema's order, array items in order, nested errors depth first at the place
// of the keyword that reached them; every error collected; schemas that would apply themselves to
// the same value forever stop instead of overflowing the stack; the scenario
// schema_failed_output_schema and d3_inline_output_schema_enforced.
import { describe, expect, it } from "vitest";
import { checkOutputSchema } from "../../../interpreter/checks/output-schema";
import { parseJson } from "../../../stdlib/values/json";
import { checkedSpec, schemaMessages } from "./support";

describe("output_schema: order", () => {
  it("keywords in the order the schema writes them", () => {
    const result = '{"b": 1}';
    expect(
      schemaMessages(
        '{"required": ["a"], "maxProperties": 0, "properties": {"b": {"type": "string"}}}',
        result,
      ),
    ).toEqual([
      "'a' is a required property",
      "{'b': 1} is expected to be empty",
      "1 is not of type 'string'",
    ]);
    expect(
      schemaMessages(
        '{"properties": {"b": {"type": "string"}}, "maxProperties": 0, "required": ["a"]}',
        result,
      ),
    ).toEqual([
      "1 is not of type 'string'",
      "{'b': 1} is expected to be empty",
      "'a' is a required property",
    ]);
  });

  it("properties in the schema's order, not the result's; each property's errors together", () => {
    const schema =
      '{"properties": {"z": {"type": "string", "minLength": 3}, "a": {"type": "integer", "minimum": 5}}}';
    expect(schemaMessages(schema, '{"a": 1.5, "z": 7}')).toEqual([
      "7 is not of type 'string'",
      "1.5 is not of type 'integer'",
      "1.5 is less than the minimum of 5",
    ]);
  });

  it("array items in order, depth first", () => {
    const schema =
      '{"items": {"properties": {"id": {"type": "integer"}, "tags": {"items": {"type": "string"}}}}}';
    expect(schemaMessages(schema, '[{"id": "1", "tags": [1, "a", 2]}, {"id": 2}, {"tags": [null]}]')).toEqual(
      [
        "'1' is not of type 'integer'",
        "1 is not of type 'string'",
        "2 is not of type 'string'",
        "None is not of type 'string'",
      ],
    );
  });

  it("if/then/else report at the place of `if`", () => {
    const schema = '{"minimum": 100, "then": {"multipleOf": 3}, "if": {"type": "integer"}, "maximum": 1}';
    expect(schemaMessages(schema, "7")).toEqual([
      "7 is less than the minimum of 100",
      "7 is not a multiple of 3",
      "7 is greater than the maximum of 1",
    ]);
  });

  it("$ref reports at its own place, next to sibling keywords (draft 2020-12)", () => {
    const schema =
      '{"type": "string", "$ref": "#/$defs/short", "$defs": {"short": {"maxLength": 1}}, "minLength": 5}';
    expect(schemaMessages(schema, '"abc"')).toEqual(["'abc' is too long", "'abc' is too short"]);
  });

  it("the recorded scenario schema_failed_output_schema", () => {
    const spec = checkedSpec(`version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  build:
    mode: compute
    intent: "Build"
    input: {}
    output: Out
    ensure: ["result.v == 'built'"]
flows:
  main:
    input: {}
    steps:
      - id: s1
        function: build
        inputs: {}
        output_schema:
          type: object
          required: [v, done]
          properties:
            done: {type: boolean}
`);
    const schema = spec.flows.get("main")?.steps[0]?.outputSchema;
    if (!schema) throw new Error("no schema");
    expect(checkOutputSchema(parseJson('{"v": "built"}'), schema)).toEqual([
      "output_schema violation: 'done' is a required property",
    ]);
    expect(checkOutputSchema(parseJson('{"v": "nope", "done": "yes"}'), schema)).toEqual([
      "output_schema violation: 'yes' is not of type 'boolean'",
    ]);
    expect(checkOutputSchema(parseJson('{"v": "built", "done": true}'), schema)).toEqual([]);
  });

  it("the scenario d3_inline_output_schema_enforced: an inline step's schema rejects the result", () => {
    const spec = checkedSpec(`version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "Produce done flag"
        retries: 2
        output_schema:
          type: object
          required: [done]
          properties: {done: {type: boolean}}
      - id: b
        intent: "Next"
`);
    const schema = spec.flows.get("main")?.steps[0]?.outputSchema;
    if (!schema) throw new Error("no schema");
    expect(checkOutputSchema(parseJson('{"finished": true}'), schema)).toEqual([
      "output_schema violation: 'done' is a required property",
    ]);
  });
});

describe("output_schema: schemas that refer to themselves", () => {
  it("a schema applied to the same value again adds nothing (no endless recursion)", () => {
    expect(schemaMessages('{"$ref": "#"}', "1")).toEqual([]);
    expect(schemaMessages('{"allOf": [{"$ref": "#"}], "type": "string"}', "1")).toEqual([
      "1 is not of type 'string'",
    ]);
    expect(
      schemaMessages(
        '{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a", "type": "null"}}, "$ref": "#/$defs/a"}',
        "1",
      ),
    ).toEqual(["1 is not of type 'null'"]);
    expect(schemaMessages('{"not": {"$ref": "#"}}', "1")).toEqual([
      "1 should not be valid under {'$ref': '#'}",
    ]);
    expect(schemaMessages('{"$ref": "#", "unevaluatedProperties": false}', '{"a": 1}')).toEqual([
      "Unevaluated properties are not allowed ('a' was unexpected)",
    ]);
  });

  it("recursion that follows the value terminates with it", () => {
    const schema = '{"type": ["array", "integer"], "items": {"$ref": "#"}}';
    let deep = "1";
    for (let i = 0; i < 300; i++) deep = `[${deep}]`;
    expect(schemaMessages(schema, deep)).toEqual([]);
    expect(schemaMessages(schema, deep.replace("1", '"x"'))).toEqual([
      "'x' is not of type 'array', 'integer'",
    ]);
  });

  it("the same schema object gives the same answers on every call (the compiled form is cached)", () => {
    const spec = checkedSpec(`version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "x"
        output_schema: {type: object, properties: {n: {minimum: 1}}}
`);
    const schema = spec.flows.get("main")?.steps[0]?.outputSchema;
    if (!schema) throw new Error("no schema");
    for (let i = 0; i < 3; i++) {
      expect(checkOutputSchema(parseJson('{"n": 0}'), schema)).toEqual([
        "output_schema violation: 0 is less than the minimum of 1",
      ]);
      expect(checkOutputSchema(parseJson('{"n": 1}'), schema)).toEqual([]);
    }
  });
});
