// The executor's plan takes every timeout from the IR: a parallel_dispatch step's task_timeout and
// the member tasks' timeout of quorum, race and debate steps — never a default of its own.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import type { StepIR } from "../../../checker/ir/types";
import { executorPlanOf } from "../../../interpreter/flow/executor-plan";

const SPEC = `version: "0.3"
contracts:
  Verdict: {severity: {type: string}}
flows:
  main:
    input: {tasks: {type: array}}
    steps:
      - {id: p, type: parallel_dispatch, source: $.input.tasks, intent_template: "Do {id}", task_timeout: 42}
      - {id: q, type: quorum, intent: Classify, output_contract: Verdict, runs: 3, agree_on: result.severity, depends_on: [p]}
      - {id: r, type: race, intent: Fix, candidates: 2, depends_on: [q]}
      - id: d
        type: debate
        intent: Argue
        debaters: [{id: pro}, {id: con}]
        rounds: 2
        synthesis: {intent: Decide}
        depends_on: [r]
`;

function steps(): ReadonlyMap<string, StepIR> {
  const checked = checkSpec(SPEC);
  expect(checked.errors).toEqual([]);
  const flow = checked.ir?.flows.get("main");
  if (flow === undefined) throw new Error("no IR");
  return flow.stepById;
}

/** The step with its member IR's timeout replaced, as an IR built with another default would be. */
function withMemberTimeout(step: StepIR, seconds: number): StepIR {
  if (step.quorum) return { ...step, quorum: { ...step.quorum, taskTimeout: seconds } };
  if (step.race) return { ...step, race: { ...step.race, taskTimeout: seconds } };
  if (step.debate) return { ...step, debate: { ...step.debate, taskTimeout: seconds } };
  throw new Error(`step ${step.id} has no members`);
}

describe("executorPlanOf", () => {
  it("a parallel_dispatch step's tasks get its task_timeout", () => {
    expect(executorPlanOf(steps().get("p") as StepIR, []).taskTimeout).toBe(42);
  });

  it("member tasks get the timeout the IR carries, the default of 1800 s unless the IR says otherwise", () => {
    for (const id of ["q", "r", "d"]) {
      const step = steps().get(id) as StepIR;
      expect(executorPlanOf(step, []).taskTimeout).toBe(1800);
      expect(executorPlanOf(withMemberTimeout(step, 7), []).taskTimeout).toBe(7);
    }
  });
});
