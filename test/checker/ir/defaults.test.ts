// The IR is complete: defaults the runtime needs are applied by the IR builder, so the interpreter
// reads the IR only — a gate's policy (default "gate") and the timeout of member tasks (the
// default task timeout, which no key of a quorum, race or debate step sets).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import type { CheckedSpec, StepIR } from "../../../checker/ir/types";
import { DEFAULT_GATE_POLICY, DEFAULT_TASK_TIMEOUT } from "../../../checker/schema/spec-schema";

function irOf(yaml: string): CheckedSpec {
  const result = checkSpec(yaml);
  expect(result.errors).toEqual([]);
  if (result.ir === null) throw new Error("no IR for a valid spec");
  return result.ir;
}

function stepOf(ir: CheckedSpec, id: string): StepIR {
  const step = ir.flows.get("main")?.stepById.get(id);
  if (step === undefined) throw new Error(`no step ${id}`);
  return step;
}

type Policy = "gate" | "flag" | "skip";

/** A flow of gates (each with a written policy or none) between two inline steps. */
function gatesSpec(policies: readonly (Policy | null)[]): string {
  const steps = policies.map((p, i) => {
    const policy = p === null ? "" : `, policy: ${p}`;
    const next = i + 1 < policies.length ? `g${i + 1}` : "done";
    return `      - {id: g${i}, function: approve, on_approve: ${next}, on_revise: start, on_kill: null${policy}}`;
  });
  return [
    'version: "0.2"',
    "functions:",
    "  approve: {mode: gate}",
    "flows:",
    "  main:",
    "    input: {}",
    "    steps:",
    "      - {id: start, intent: Begin}",
    ...steps,
    "      - {id: done, intent: Finish}",
    "",
  ].join("\n");
}

describe("defaults in the IR", () => {
  it("a gate without policy carries the default policy; one with policy keeps it; other steps have none", () => {
    const ir = irOf(gatesSpec([null, "flag", "skip", "gate"]));
    expect(DEFAULT_GATE_POLICY).toBe("gate");
    expect(["g0", "g1", "g2", "g3", "done"].map((id) => stepOf(ir, id).policy)).toEqual([
      "gate",
      "flag",
      "skip",
      "gate",
      null,
    ]);
  });

  it("any gate written without policy gets the default, any other keeps its own (property)", () => {
    const policy = fc.constantFrom<Policy | null>(null, "gate", "flag", "skip");
    fc.assert(
      fc.property(fc.array(policy, { minLength: 1, maxLength: 6 }), (policies) => {
        const ir = irOf(gatesSpec(policies));
        const have = policies.map((_, i) => stepOf(ir, `g${i}`).policy);
        expect(have).toEqual(policies.map((p) => p ?? DEFAULT_GATE_POLICY));
        expect([stepOf(ir, "start").policy, stepOf(ir, "done").policy]).toEqual([null, null]);
      }),
      { numRuns: 40 },
    );
  });

  it("quorum, race and debate steps carry the default task timeout of their member tasks", () => {
    const ir = irOf(`version: "0.3"
contracts:
  Verdict: {severity: {type: string}}
flows:
  main:
    input: {}
    steps:
      - {id: q, type: quorum, intent: Classify, output_contract: Verdict, runs: 3, agree_on: result.severity}
      - {id: r, type: race, intent: Fix, candidates: 2, depends_on: [q]}
      - id: d
        type: debate
        intent: Argue
        debaters: [{id: pro}, {id: con}]
        rounds: 2
        synthesis: {intent: Decide}
        depends_on: [r]
`);
    expect(DEFAULT_TASK_TIMEOUT).toBe(1800);
    expect(stepOf(ir, "q").quorum?.taskTimeout).toBe(DEFAULT_TASK_TIMEOUT);
    expect(stepOf(ir, "r").race?.taskTimeout).toBe(DEFAULT_TASK_TIMEOUT);
    expect(stepOf(ir, "d").debate?.taskTimeout).toBe(DEFAULT_TASK_TIMEOUT);
  });
});
