// The checked IR: defaults, execution order, resolved references, typed expressions, immutability.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import type { CheckedSpec } from "../../../checker/ir/types";
import { typeToString } from "../../../stdlib/types/print";

function irOf(yaml: string): CheckedSpec {
  const result = checkSpec(yaml);
  expect(result.errors).toEqual([]);
  if (result.ir === null) throw new Error("no IR for a valid spec");
  return result.ir;
}

const SPEC = `version: "0.2"
contracts:
  Plan:
    steps: {type: array, items: {type: string}}
    risk: {type: string, values: [low, high]}
    note: {type: string, required: false}
functions:
  plan:
    mode: infer
    intent: "Plan the change"
    input: {goal: {type: string}}
    output: Plan
    ensure: ["len(result.steps) > 0"]
  approve:
    mode: gate
    timeout: 60
flows:
  main:
    input: {goal: {type: string}, "__proto__": {type: string}}
    max_rounds: 2
    steps:
      - id: b
        intent: "Build it"
        inputs: {plan: "$.steps.a.output.steps", literal: "see $.input.goal"}
        ensure: ["result.ok == True"]
        retries: 2
      - id: a
        function: plan
        inputs: {goal: "$.input.goal"}
      - id: gate
        function: approve
        depends_on: [b]
        on_approve: null
        on_revise: a
        on_kill: null
        skip_if: "$.steps.a.output.risk == 'low'"
`;

describe("buildIR", () => {
  const ir = irOf(SPEC);
  const flow = ir.flows.get("main");

  it("orders steps in stable topological order and records dependencies", () => {
    expect(flow?.steps.map((s) => s.id)).toEqual(["a", "b", "gate"]);
    expect(flow?.stepById.get("b")?.dependencies).toEqual(["a"]);
    expect(flow?.stepById.get("gate")?.dependsOn).toEqual(["b"]);
    expect(flow?.stepById.get("b")?.index).toBe(0);
  });

  it("resolves kinds and applies the documented defaults", () => {
    const a = flow?.stepById.get("a");
    const b = flow?.stepById.get("b");
    const gate = flow?.stepById.get("gate");
    expect([a?.kind, b?.kind, gate?.kind]).toEqual(["function", "inline", "gate"]);
    expect(a?.retries).toBe(3);
    expect(b?.retries).toBe(2);
    expect(gate?.onRevise).toBe("a");
    expect(gate?.onApprove).toBeNull();
    expect(ir.functions.get("approve")?.timeout).toBe(60);
    expect(ir.functions.get("plan")?.retries).toBe(3);
    expect(flow?.maxRounds).toBe(2);
    expect(flow?.output).toBe("");
  });

  it("parses input references and keeps literals", () => {
    const inputs = flow?.stepById.get("b")?.inputs ?? [];
    expect(inputs.map((i) => [i.name, i.raw, i.ref?.scope ?? null, i.ref?.name.name ?? null])).toEqual([
      ["plan", "$.steps.a.output.steps", "steps", "a"],
      ["literal", "see $.input.goal", null, null],
    ]);
  });

  it("keeps typed expressions", () => {
    const fnEnsure = ir.functions.get("plan")?.ensure[0];
    expect(fnEnsure?.text).toBe("len(result.steps) > 0");
    expect(fnEnsure?.kind).toBe("ensure");
    expect(typeToString(fnEnsure?.type ?? { k: "any" })).toBe("bool");
    const skip = flow?.stepById.get("gate")?.skipIf;
    expect(skip?.ast.kind).toBe("Compare");
    expect(typeToString(flow?.stepById.get("a")?.resultType ?? { k: "any" })).toBe("Plan");
  });

  it("keeps contracts with their field definitions", () => {
    const plan = ir.contracts.get("Plan");
    expect(plan?.fields.get("risk")).toMatchObject({
      type: "string",
      kind: "string",
      values: ["low", "high"],
    });
    expect(plan?.fields.get("steps")?.items).toMatchObject({ type: "string", kind: "string" });
    expect(plan?.fields.get("note")?.required).toBe(false);
    expect(plan?.record.fields.has("risk")).toBe(true);
  });

  it("stores `__proto__` keys as data", () => {
    expect(flow?.inputNames).toEqual(["goal", "__proto__"]);
    expect(Object.keys(flow?.input ?? {})).toEqual(["goal", "__proto__"]);
    expect(Object.getPrototypeOf(flow?.input)).toBeNull();
  });

  it("is immutable", () => {
    expect(Object.isFrozen(flow)).toBe(true);
    expect(Object.isFrozen(flow?.steps)).toBe(true);
    expect(() => (ir.flows as Map<string, unknown>).set("x", 1)).toThrow(/immutable/);
    const steps = flow?.steps as unknown as string[];
    expect(() => steps.push("x")).toThrow();
  });

  it("has no IR when the spec has errors", () => {
    expect(
      checkSpec(`version: "0.2"\nflows: {f: {input: {}, steps: [{id: a, intent: x, next: nowhere}]}}\n`).ir,
    ).toBeNull();
  });

  it("determines the workflow entry flow", () => {
    const w = irOf(`version: "0.2"
workflow: {name: only-one, description: "d", input: {}}
flows:
  main:
    input: {}
    steps: [{id: a, intent: x}]
`).workflow;
    expect(w).toMatchObject({ name: "only-one", entry: "main", description: "d" });
  });
});
