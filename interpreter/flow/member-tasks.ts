// The members of stratumc's member steps as server-side tasks (docs/runtime.md §23.16): one task
// object `{id, intent, agent}` per quorum run, race candidate or debater of the current round (its
// intent with the history so far), in member order, run by the executor like a parallel step's
// tasks.
import { isMemberStepKind } from "../../checker/base/step-kinds";
import type { StepIR } from "../../checker/ir/types";
import { dictSet } from "../../stdlib/values/dict";
import { PyDict } from "../../stdlib/values/value";
import { debaterIntent } from "./debate-payload";
import { debateOf, readProgress } from "./debate-state";
import type { StartedTask } from "./parallel-start";
import { quorumOf, runIds } from "./quorum-payload";
import { raceOf } from "./race-payload";
import type { FlowRun } from "./run";

/** A step whose members the server can run itself. */
export function runsMembers(step: StepIR): boolean {
  return isMemberStepKind(step.kind);
}

/** Seconds one member task may run, as the IR gives it (the default: no key sets it). */
export function memberTaskTimeout(step: StepIR): number {
  if (step.kind === "race") return raceOf(step).taskTimeout;
  if (step.kind === "debate") return debateOf(step).taskTimeout;
  return quorumOf(step).taskTimeout;
}

export function memberTasks(run: FlowRun, step: StepIR): StartedTask[] {
  return membersOf(run, step).map((m) => {
    const task = new PyDict();
    dictSet(task, "id", m.id);
    dictSet(task, "intent", m.intent);
    dictSet(task, "agent", m.agent);
    return { id: m.id, task };
  });
}

function membersOf(run: FlowRun, step: StepIR) {
  if (step.kind === "race") return raceOf(step).candidates;
  if (step.kind === "debate") {
    const debate = debateOf(step);
    const progress = readProgress(run, step);
    const round = progress.round + 1;
    return debate.debaters.map((d) => ({
      id: d.id,
      agent: d.agent,
      intent: debaterIntent(d, progress, round, debate.rounds),
    }));
  }
  return runIds(quorumOf(step)).map((id) => ({ id, agent: step.agent, intent: step.intent ?? "" }));
}
