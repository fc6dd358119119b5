// A judge step (docs/reference/runtime.md §25.3): the payload tells the caller which predicates,
// stakes and budget to hand to stratum_judge (flow/judge/), and the caller reports the verdict with
// stratum_step_done, which checks it as an inline step's result.
import type { StepIR } from "../../../checker/ir/types";
import { fromJsonValue } from "../../../stdlib/values/json";
import type { Response } from "../../wire/wire";
import { position, retriesRemaining } from "../payloads";
import type { FlowRun } from "../run";
import type { Tx } from "../tx";
import type { FlowKind } from "./descriptor";
import { dispatchInputs } from "./shared/dispatch-inputs";

export const judgeKind: FlowKind = {
  stepMode: "judge",
  dispatch: dispatchJudge,
};

function dispatchJudge(tx: Tx, run: FlowRun, step: StepIR): Response {
  dispatchInputs(tx, run, step);
  const judge = step.judge ?? null;
  if (judge === null) throw new Error(`judge step '${step.id}' without its judge block`);
  const { step_number, total_steps } = position(run);
  return {
    status: "execute_step",
    flow_id: run.state.flow_id,
    step_number,
    total_steps,
    step_id: step.id,
    step_mode: judgeKind.stepMode,
    agent: step.agent,
    predicates: judge.predicates.map(fromJsonValue),
    stakes: judge.stakes,
    budget: judge.budget === null ? null : fromJsonValue(judge.budget),
    ensure: step.ensure.map((e) => e.text),
    retries_remaining: retriesRemaining(run, step),
  };
}
