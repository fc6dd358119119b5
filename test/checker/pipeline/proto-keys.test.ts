// `__proto__`, `constructor`, `prototype` and other Object.prototype names as user names at every
// level: contract, field, function, flow, step and input names, and plain mapping keys. They must
// behave exactly like any other name, and nothing may reach Object.prototype.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { lineOf } from "../../support/spec-generate";
import { locationProblems } from "../../support/spec-ranges";

const VALID = `version: "0.2"
workflow:
  name: constructor
  description: "A workflow whose entry flow is named constructor"
  input: {}
contracts:
  __proto__:
    constructor: {type: string}
    prototype: {type: integer}
    __proto__: {type: string, required: false}
  constructor:
    toString: {type: string}
    hasOwnProperty: {type: __proto__}
  prototype:
    valueOf: {type: string, values: [a, b]}
functions:
  __proto__:
    mode: infer
    intent: "Work on the prototype"
    input: {__proto__: {type: string, polluted: yes}, constructor: {}}
    output: __proto__
    ensure: ["result.constructor != ''", "result.prototype >= 0"]
  constructor:
    mode: gate
  toString:
    mode: compute
    intent: "Stringify"
    input: {}
    output: constructor
    ensure: ["result.toString.startswith('a')", "result.hasOwnProperty.constructor != ''"]
flows:
  __proto__:
    max_rounds: 2
    input:
      __proto__: {type: string}
      constructor: {type: integer}
      prototype: {type: string}
    steps:
      - id: __proto__
        function: __proto__
        inputs: {__proto__: "$.input.__proto__", constructor: "$.input.constructor"}
      - id: constructor
        function: toString
        inputs: {prototype: "$.steps.__proto__.output.prototype"}
      - id: prototype
        function: constructor
        skip_if: "$.input.constructor > 3"
        on_approve: ~
        on_revise: constructor
        on_kill: ~
  constructor:
    input: {}
    steps:
      - {id: toString, flow: __proto__, inputs: {__proto__: "x", constructor: "1"}}
      - id: valueOf
        intent: "Check the child's result"
        depends_on: [toString]
        output_contract: prototype
        skip_if: "$.steps.toString.output == None"
        ensure: ["result.valueOf == 'a'"]
`;

/** Each mistake made with a prototype name, as [code, path, needle on the line, message]. */
const INVALID = `version: "0.2"
constructor: 1
contracts:
  prototype:
    valueOf: {type: toString}
functions:
  __proto__:
    mode: infer
    intent: "Work"
    input: {}
    output: prototype
    ensure: ["result.toString == ''"]
flows:
  constructor:
    input: {prototype: {type: string}}
    steps:
      - id: __proto__
        function: __proto__
        __proto__: 1
      - {id: __proto__, intent: "again"}
      - id: a
        function: valueOf
      - id: b
        flow: hasOwnProperty
      - id: c
        intent: "read"
        depends_on: [hasOwnProperty]
        inputs: {x: "$.input.toString", y: "$.steps.constructor.output"}
        output_contract: toString
`;

const EXPECTED_INVALID: ReadonlyArray<readonly [string, string, string, string]> = [
  [
    "SCHEMA-UNKNOWN-KEY",
    "root",
    "constructor: 1",
    "Additional properties are not allowed ('constructor' was unexpected)",
  ],
  [
    "SPEC-CONTRACT-FIELD-TYPE-UNKNOWN",
    "contracts.prototype.valueOf.type",
    "valueOf: {type: toString}",
    "Contract 'prototype' field 'valueOf' has unknown type 'toString' (expected string, number, integer, boolean, array, object or a contract name)",
  ],
  [
    "EXPR-UNKNOWN-FIELD",
    "functions.__proto__.ensure.0",
    "result.toString",
    "contract 'prototype' has no field 'toString'",
  ],
  [
    "SCHEMA-UNKNOWN-KEY",
    "flows.constructor.steps.0",
    "__proto__: 1",
    "Additional properties are not allowed ('__proto__' was unexpected)",
  ],
  [
    "SPEC-STEP-DUPLICATE-ID",
    "flows.constructor.steps.1.id",
    "{id: __proto__",
    "Step id '__proto__' is declared more than once in flow 'constructor'",
  ],
  [
    "SPEC-STEP-FUNCTION-UNDEFINED",
    "flows.constructor.steps.a.function",
    "function: valueOf",
    "Step 'a' references undefined function 'valueOf'",
  ],
  [
    "SPEC-STEP-FLOW-UNDEFINED",
    "flows.constructor.steps.b.flow",
    "flow: hasOwnProperty",
    "Step 'b' references undefined flow 'hasOwnProperty'",
  ],
  [
    "SPEC-DEPENDS-ON-UNKNOWN",
    "flows.constructor.steps.c.depends_on",
    "depends_on: [hasOwnProperty]",
    "Step 'c' depends_on unknown step 'hasOwnProperty'",
  ],
  [
    "SPEC-REF-UNDECLARED-INPUT",
    "flows.constructor.steps.c.inputs.x",
    "$.input.toString",
    "Reference '$.input.toString' names input 'toString', which flow 'constructor' does not declare",
  ],
  [
    "SPEC-REF-UNKNOWN-STEP",
    "flows.constructor.steps.c.inputs.y",
    "$.steps.constructor",
    "Reference '$.steps.constructor.output' names unknown step 'constructor' in flow 'constructor'",
  ],
  [
    "SPEC-OUTPUT-CONTRACT-UNDEFINED",
    "flows.constructor.steps.c.output_contract",
    "output_contract: toString",
    "Step 'c' output_contract 'toString' not defined",
  ],
];

let prototypeNames: string[] = [];

/** An own property's value, read without any accessor (`__proto__` included). */
function ownValue(o: object | undefined, key: string): unknown {
  return o === undefined ? undefined : Object.getOwnPropertyDescriptor(o, key)?.value;
}

beforeAll(() => {
  prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
});

afterAll(() => {
  // Nothing any check did may have reached Object.prototype.
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe("prototype names as user names", () => {
  it("a spec that uses them everywhere checks clean", () => {
    const result = checkSpec(VALID);
    expect(result.diagnostics.map((d) => `${d.line} ${d.code}: ${d.message}`)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it("the IR keeps them as ordinary names", () => {
    const ir = checkSpec(VALID).ir;
    expect(ir).not.toBeNull();
    if (ir === null) return;
    expect([...ir.contracts.keys()]).toEqual(["__proto__", "constructor", "prototype"]);
    expect([...(ir.contracts.get("__proto__")?.fields.keys() ?? [])]).toEqual([
      "constructor",
      "prototype",
      "__proto__",
    ]);
    expect([...ir.functions.keys()]).toEqual(["__proto__", "constructor", "toString"]);
    expect([...ir.flows.keys()]).toEqual(["__proto__", "constructor"]);
    expect(ir.workflow?.entry).toBe("constructor");
    const proto = ir.flows.get("__proto__");
    expect(proto?.steps.map((s) => [s.id, s.kind])).toEqual([
      ["__proto__", "function"],
      ["constructor", "function"],
      ["prototype", "gate"],
    ]);
    expect(proto?.inputNames).toEqual(["__proto__", "constructor", "prototype"]);
    expect(proto?.stepById.get("constructor")?.dependencies).toEqual(["__proto__"]);
    // Loaded mappings keep `__proto__` as an own key, not as a prototype.
    const input = ir.functions.get("__proto__")?.input;
    expect(input !== undefined && Object.hasOwn(input, "__proto__")).toBe(true);
    const protoInput = ownValue(input, "__proto__");
    expect(protoInput).toEqual(expect.objectContaining({ type: "string", polluted: true }));
    expect(Object.keys(input ?? {})).toEqual(["__proto__", "constructor"]);
  });

  it("mistakes made with them are reported like any other", () => {
    const result = checkSpec(INVALID);
    expect(locationProblems(INVALID, result.diagnostics)).toEqual([]);
    const actual = result.diagnostics.map((d) => [d.code, d.path, d.line, d.message]);
    const expected = EXPECTED_INVALID.map(([code, path, needle, message]) => [
      code,
      path,
      lineOf(INVALID, needle),
      message,
    ]);
    expect(actual).toEqual(expected);
  });

  it("a workflow named like an Object.prototype member has no entry flow among two others", () => {
    const text = `version: "0.2"
workflow: {name: constructor, description: d, input: {__proto__: {type: string}}}
flows:
  __proto__: {input: {__proto__: {}}, steps: [{id: a, intent: x}]}
  prototype: {input: {}, steps: [{id: a, intent: x}]}
`;
    expect(checkSpec(text).diagnostics.map((d) => [d.code, d.path, d.line, d.message])).toEqual([
      [
        "SPEC-WORKFLOW-NO-ENTRY",
        "workflow.name",
        2,
        "Workflow 'constructor' has no matching flow and spec has 2 flows — cannot determine entry flow",
      ],
    ]);
    const single = text.replace("  prototype: {input: {}, steps: [{id: a, intent: x}]}\n", "");
    expect(checkSpec(single).diagnostics).toEqual([]);
    const mismatch = single.replace("input: {__proto__: {}}", "input: {prototype: {}}");
    expect(checkSpec(mismatch).diagnostics.map((d) => d.message)).toEqual([
      "Workflow input keys ['__proto__'] do not match entry flow '__proto__' input keys ['prototype']",
    ]);
  });

  it("a duplicated __proto__ key warns and the last occurrence wins", () => {
    const text = `version: "0.2"
flows:
  f:
    input:
      __proto__: {type: string}
      __proto__: {type: integer}
    steps:
      - {id: a, intent: x}
`;
    const result = checkSpec(text);
    expect(result.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ["YAML-DUPLICATE-KEY", 5, "Duplicate key '__proto__' in mapping; the last occurrence is used"],
    ]);
    expect(result.diagnostics[0]?.related?.map((r) => r.line)).toEqual([6]);
    const input = result.ir?.flows.get("f")?.input;
    expect(ownValue(input, "__proto__")).toEqual({ type: "integer" });
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});
