// Contract records (docs/reference/language.md §3.2): built once per model and shared with the IR, nested and
// self-recursive contracts, enumerations from `values`, unknown types as `any`.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { contractRecords } from "../../../checker/spec-expr/contracts";
import { typeToString } from "../../../stdlib/types/print";
import { diagnose, loc, runPhase, stepOf } from "./harness";

const SPEC = `version: "0.2"
contracts:
  Node:
    name: {type: string}
    children: {type: array, items: {type: Node}}
    level: {type: integer, values: [1, 2.0, 0x3]}
    ratio: {type: number, values: [0.5, 1]}
    kind: {type: string, values: [leaf, tree], required: false}
    alias: {type: str}
    anything: {type: array}
    meta: {type: object}
  Empty: {}
functions:
  work: {mode: infer, intent: "W", input: {}, output: Node}
flows:
  f:
    input: {}
    steps:
      - id: a
        function: work
      - id: b
        intent: "B"
        output_contract: Node
        depends_on: [a]
        skip_if: "$.steps.a.output.children.0.children.0.nam"
        ensure:
          - "result.children[0].nme == 'x'"
          - "result.level == 4 or result.ratio == 2"
          - "result.alias > 1 and result.anything[0].x and result.meta.y"
          - "result.kind == 'bush'"
`;

const VALID = `version: "0.2"
contracts:
  Node:
    name: {type: string}
    children: {type: array, items: {type: Node}}
functions:
  work: {mode: infer, intent: "W", input: {}, output: Node, ensure: ["result.children[0].name != ''"]}
flows:
  f:
    input: {}
    steps:
      - id: a
        function: work
      - id: b
        intent: "B"
        output_contract: Node
        output_schema: {properties: {x: {type: string}}}
        inputs: {n: "$.steps.a.output.children.0.name"}
        ensure: ["result.x != result.name"]
`;

describe("contract records", () => {
  it("are built once per model, and the IR uses the same objects", () => {
    const result = checkSpec(VALID);
    expect(result.errors).toEqual([]);
    const model = result.model;
    if (model === null || result.ir === null) throw new Error("a valid spec expected");
    const records = contractRecords(model);
    expect(contractRecords(model)).toBe(records);
    expect(result.ir.contracts.get("Node")?.record).toBe(records.get("Node"));
    // A step without output_schema sees the contract's own record; one with it, a derived copy.
    const a = result.expressions?.resultType(stepOf(model, "f", "a"));
    expect(a?.k === "record" && a.record).toBe(records.get("Node"));
    const b = result.expressions?.resultType(stepOf(model, "f", "b"));
    expect(b?.k === "record" && b.record.name).toBe("Node");
    expect(b?.k === "record" && b.record).not.toBe(records.get("Node"));
    expect(result.ir.flows.get("f")?.stepById.get("b")?.resultType).toBe(b);
  });

  it("translate every field definition", () => {
    const run = runPhase(SPEC);
    const node = contractRecords(run.model).get("Node");
    if (node === undefined) throw new Error("no Node");
    expect(
      [...node.fields].map(([n, f]) => `${n}: ${typeToString(f.type)} ${f.optional} ${f.written}`),
    ).toEqual([
      "name: str false string",
      "children: list[Node] false array",
      "level: int{1,2,3} false integer",
      "ratio: int{1} | float{0.5,1.0} false number",
      "kind: str{'leaf','tree'} | none true string",
      "alias: any false str",
      "anything: list[any] false array",
      "meta: dict[str, any] false object",
    ]);
    expect(contractRecords(run.model).get("Empty")?.fields.size).toBe(0);
  });

  it("type results and paths through recursion, enumerations and unknown types", () => {
    const ds = diagnose(SPEC);
    expect(ds.map((d) => [d.code, d.path, d.message])).toEqual([
      [
        "SPEC-REF-UNKNOWN-FIELD",
        "flows.f.steps.b.skip_if",
        "Reference '$.steps.a.output.children.0.children.0.nam': contract 'Node' has no field 'nam'",
      ],
      ["EXPR-UNKNOWN-FIELD", "flows.f.steps.b.ensure.0", "contract 'Node' has no field 'nme'"],
      [
        "EXPR-ENUM-VALUE",
        "flows.f.steps.b.ensure.1",
        "4 is not an allowed value of field 'level' (allowed: [1, 2, 3])",
      ],
      [
        "EXPR-ENUM-VALUE",
        "flows.f.steps.b.ensure.1",
        "2 is not an allowed value of field 'ratio' (allowed: [1, 0.5])",
      ],
      [
        "EXPR-ENUM-VALUE",
        "flows.f.steps.b.ensure.3",
        "'bush' is not an allowed value of field 'kind' (allowed: ['leaf', 'tree'])",
      ],
    ]);
    expect(ds[0]).toMatchObject({ ...loc(SPEC, 'nam"'), end_column: loc(SPEC, 'nam"').end_column - 1 });
    expect(ds[0]?.suggestion).toBe("Did you mean 'name'?");
  });
});
