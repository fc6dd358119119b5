// The dispatch payload of a race step (stratumc's extension, docs/reference/runtime.md §23.14): a
// `parallel_dispatch` payload with `step_mode: "race"` whose tasks are the candidates, each with its
// own agent and intent, so consumers of parallel payloads run them as they run tasks; `candidates`
// repeats them for readers that know races.
import type { RaceIR, StepIR } from "../../../../checker/ir/types";
import type { PyDict } from "../../../../stdlib/values/value";
import type { Response, Wire } from "../../../wire/wire";
import { retriesRemaining } from "../../payloads";
import type { FlowRun } from "../../run";
import { memberPayloadHead, memberResultChecks } from "../shared/member-payload";

/** A race step's keys (present exactly on race steps). */
export function raceOf(step: StepIR): RaceIR {
  const race = step.race ?? null;
  if (race === null) throw new Error(`step '${step.id}' is not a race step`);
  return race;
}

/** The candidate ids of a race step, in member order. */
export function candidateIds(race: RaceIR): string[] {
  return race.candidates.map((c) => c.id);
}

export function racePayload(run: FlowRun, step: StepIR, inputs: PyDict): Response {
  const candidates: Wire[] = raceOf(step).candidates.map((c) => ({
    id: c.id,
    agent: c.agent,
    intent: c.intent,
  }));
  return {
    ...memberPayloadHead(run, step, "race", candidates),
    ...memberResultChecks(run, step, inputs),
    candidates,
    retries_remaining: retriesRemaining(run, step),
  };
}
