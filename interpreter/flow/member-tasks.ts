// The members of a quorum or race step as server-side tasks (docs/runtime.md §23.16): one task
// object `{id, intent, agent}` per run or candidate, in member order, run by the executor like a
// parallel step's tasks.
import type { StepIR } from "../../checker/ir/types";
import { dictSet } from "../../stdlib/values/dict";
import { PyDict } from "../../stdlib/values/value";
import type { StartedTask } from "./parallel-start";
import { quorumOf, runIds } from "./quorum-payload";
import { raceOf } from "./race-payload";

/** A step whose members the server can run itself. */
export function runsMembers(step: StepIR): boolean {
  return step.kind === "quorum" || step.kind === "race";
}

export function memberTasks(step: StepIR): StartedTask[] {
  const members =
    step.kind === "race"
      ? raceOf(step).candidates
      : runIds(quorumOf(step)).map((id) => ({ id, agent: step.agent, intent: step.intent ?? "" }));
  return members.map((m) => {
    const task = new PyDict();
    dictSet(task, "id", m.id);
    dictSet(task, "intent", m.intent);
    dictSet(task, "agent", m.agent);
    return { id: m.id, task };
  });
}
