// The contract check (docs/reference/runtime.md §4.2, docs/reference/language.md §3.2): every violation text of the table,
// acceptance per type (integral floats, booleans vs numbers), `values` by Python equality,
// optional fields, nested contracts and array items with their paths, order and the recorded
// scenario d5_contract_enforced.
import { describe, expect, it } from "vitest";
import { checkContract } from "../../../interpreter/checks/contract";
import { makeDict } from "../../../stdlib/values/dict";
import { PyNamespace, PyTuple } from "../../../stdlib/values/value";
import { checkedSpec, contractOf, contractViolations } from "./support";

const SPEC = checkedSpec(`version: "0.2"
contracts:
  Finding:
    id:       {type: integer}
    severity: {type: string, values: [low, medium, high]}
    file:     {type: string, required: false}
  Meta:
    owner: {type: string}
    level: {type: integer, values: [1, 2]}
  Review:
    summary:  {type: string}
    score:    {type: number}
    findings: {type: array, items: {type: Finding}}
    meta:     {type: Meta}
    tags:     {type: array, items: {type: string}, required: false}
    ok:       {type: boolean, required: false}
    extra:    {type: object, required: false}
  Kinds:
    s: {type: string, required: false}
    n: {type: number, required: false}
    i: {type: integer, required: false}
    b: {type: boolean, required: false}
    a: {type: array, required: false}
    o: {type: object, required: false}
    f: {type: Finding, required: false}
  Tree:
    label: {type: string}
    children: {type: array, items: {type: Tree}, required: false}
  Loose:
    maybe: {type: array, items: {type: integer, required: false}}
  Empty: {}
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
      - id: s
        function: f
        inputs: {}
`);

const GOOD_REVIEW = `{"summary": "s", "score": 0.5, "findings": [{"id": 1, "severity": "low"}],
  "meta": {"owner": "ann", "level": 2}}`;

function violations(contract: string, json: string): string[] {
  return contractViolations(SPEC, contract, json);
}

describe("contract: the table of violation texts", () => {
  it("result not an object: one violation naming the contract and the JSON kind", () => {
    const cases: Array<[string, string]> = [
      ["null", "null"],
      ["true", "boolean"],
      ["3", "integer"],
      ["3.0", "number"],
      ['"x"', "string"],
      ["[]", "array"],
    ];
    for (const [json, kind] of cases) {
      expect(violations("Review", json)).toEqual([
        `contract violation: result must be an object (contract 'Review'), got ${kind}`,
      ]);
    }
  });

  it("missing required field", () => {
    expect(violations("Meta", '{"owner": "a"}')).toEqual([
      "contract violation: missing required field 'level' (contract 'Meta')",
    ]);
  });

  it("wrong kind and null in a required field", () => {
    expect(violations("Meta", '{"owner": 5, "level": null}')).toEqual([
      "contract violation: field 'owner' must be of type string, got integer",
      "contract violation: field 'level' must be of type integer, got null",
    ]);
  });

  it("value outside `values`, with Python reprs of the list and the value", () => {
    expect(violations("Finding", '{"id": 1, "severity": "weird"}')).toEqual([
      "contract violation: field 'severity' must be one of ['low', 'medium', 'high'], got 'weird'",
    ]);
    expect(violations("Meta", '{"owner": "a", "level": 3}')).toEqual([
      "contract violation: field 'level' must be one of [1, 2], got 3",
    ]);
  });

  it("a valid result and extra fields pass", () => {
    expect(violations("Review", GOOD_REVIEW)).toEqual([]);
    expect(violations("Meta", '{"owner": "a", "level": 1, "unexpected": [1]}')).toEqual([]);
    expect(violations("Empty", '{"anything": null}')).toEqual([]);
  });
});

describe("contract: acceptance per type (docs/reference/language.md §3.2)", () => {
  const accepted: Array<[string, string]> = [
    ["s", '"x"'],
    ["n", "1"],
    ["n", "1.5"],
    ["n", "-0.0"],
    ["n", "123456789012345678901234567890"],
    ["i", "2"],
    ["i", "2.0"],
    ["i", "-0.0"],
    ["i", "123456789012345678901234567890"],
    ["b", "false"],
    ["a", "[1, null]"],
    ["o", "{}"],
    ["f", '{"id": 1, "severity": "high"}'],
  ];
  for (const [field, json] of accepted) {
    it(`${field} accepts ${json}`, () => {
      expect(violations("Kinds", `{"${field}": ${json}}`)).toEqual([]);
    });
  }

  const rejected: Array<[string, string, string, string]> = [
    ["s", "1", "string", "integer"],
    ["n", "true", "number", "boolean"],
    ["n", '"1"', "number", "string"],
    ["i", "2.5", "integer", "number"],
    ["i", "false", "integer", "boolean"],
    ["i", "NaN", "integer", "number"],
    ["i", "Infinity", "integer", "number"],
    ["b", "0", "boolean", "integer"],
    ["a", "{}", "array", "object"],
    ["o", "[]", "object", "array"],
    ["f", '"x"', "Finding", "string"],
    ["f", "[]", "Finding", "array"],
  ];
  for (const [field, json, type, kind] of rejected) {
    it(`${field} rejects ${json}`, () => {
      expect(violations("Kinds", `{"${field}": ${json}}`)).toEqual([
        `contract violation: field '${field}' must be of type ${type}, got ${kind}`,
      ]);
    });
  }

  it("required: false fields may be absent or null", () => {
    expect(violations("Kinds", "{}")).toEqual([]);
    expect(
      violations("Kinds", '{"s": null, "n": null, "i": null, "b": null, "a": null, "o": null, "f": null}'),
    ).toEqual([]);
  });

  it("`values` uses Python equality: an integral float equals the int", () => {
    expect(violations("Meta", '{"owner": "a", "level": 2.0}')).toEqual([]);
    expect(violations("Meta", '{"owner": "a", "level": 2.5}')).toEqual([
      "contract violation: field 'level' must be of type integer, got number",
    ]);
  });

  it("a namespace counts as its object and a tuple as an array", () => {
    // Results are JSON, but the checks take the value model's other containers without surprise.
    const namespace = new PyNamespace(makeDict([["a", new PyTuple(["x", 1])]]));
    const spec = checkedSpec(`version: "0.2"
contracts:
  T:
    a: {type: array, items: {type: string}}
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "x"
        output_contract: T
`);
    expect(checkContract(namespace, contractOf(spec, "T"), spec)).toEqual([
      "contract violation: field 'a[1]' must be of type string, got integer",
    ]);
  });
});

describe("contract: nesting, paths and order", () => {
  it("declaration order, depth first through nested contracts and items, all reported", () => {
    const result = `{"summary": 1,
      "findings": [{"id": 1, "severity": "low"}, {"id": "2"}, null, {"id": 4.0, "severity": "mid", "file": 3}],
      "meta": {"level": 7},
      "tags": ["a", 2]}`;
    expect(violations("Review", result)).toEqual([
      "contract violation: field 'summary' must be of type string, got integer",
      "contract violation: missing required field 'score' (contract 'Review')",
      "contract violation: field 'findings[1].id' must be of type integer, got string",
      "contract violation: missing required field 'findings[1].severity' (contract 'Finding')",
      "contract violation: field 'findings[2]' must be of type Finding, got null",
      "contract violation: field 'findings[3].severity' must be one of ['low', 'medium', 'high'], got 'mid'",
      "contract violation: field 'findings[3].file' must be of type string, got integer",
      "contract violation: missing required field 'meta.owner' (contract 'Meta')",
      "contract violation: field 'meta.level' must be one of [1, 2], got 7",
      "contract violation: field 'tags[1]' must be of type string, got integer",
    ]);
  });

  it("recursive contracts follow the value", () => {
    const tree = `{"label": "root", "children": [{"label": "a"}, {"label": "b", "children": [{"label": 3}, {}]}]}`;
    expect(violations("Tree", tree)).toEqual([
      "contract violation: field 'children[1].children[0].label' must be of type string, got integer",
      "contract violation: missing required field 'children[1].children[1].label' (contract 'Tree')",
    ]);
  });

  it("items with required: false accept null elements", () => {
    expect(violations("Loose", '{"maybe": [1, null, 2.0]}')).toEqual([]);
    expect(violations("Loose", '{"maybe": [1, "x"]}')).toEqual([
      "contract violation: field 'maybe[1]' must be of type integer, got string",
    ]);
  });

  it("a field of the wrong kind is not looked into", () => {
    expect(violations("Review", '{"summary": "s", "score": 1, "findings": {"id": "x"}, "meta": []}')).toEqual(
      [
        "contract violation: field 'findings' must be of type array, got object",
        "contract violation: field 'meta' must be of type Meta, got array",
      ],
    );
  });

  it("field names with dots and quotes are written as they are", () => {
    const spec = checkedSpec(`version: "0.2"
contracts:
  Odd:
    "a.b": {type: string}
    "it's": {type: integer}
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "x"
        output_contract: Odd
`);
    expect(contractViolations(spec, "Odd", '{"a.b": 1}')).toEqual([
      "contract violation: field 'a.b' must be of type string, got integer",
      "contract violation: missing required field 'it's' (contract 'Odd')",
    ]);
  });
});

describe("contract: recorded scenario d5_contract_enforced", () => {
  const spec = checkedSpec(`version: "0.2"
contracts:
  Out:
    v: {type: string}
    n: {type: number}
  Verdict:
    state: {type: string, values: [ok, failed]}
functions:
  work:
    mode: infer
    intent: "Work"
    input: {}
    output: Out
flows:
  main:
    input: {}
    steps:
      - id: a
        function: work
        inputs: {}
      - id: b
        intent: "Judge"
        output_contract: Verdict
        retries: 2
`);

  it("extra fields are fine", () => {
    expect(contractViolations(spec, "Out", '{"v": "x", "n": 1, "extra": true}')).toEqual([]);
  });

  it("a value outside the field's values is a contract violation", () => {
    expect(contractViolations(spec, "Verdict", '{"state": "weird"}')).toEqual([
      "contract violation: field 'state' must be one of ['ok', 'failed'], got 'weird'",
    ]);
  });
});
