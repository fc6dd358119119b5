// The dispatch payload of a race step (stratumc's extension, docs/runtime.md §23.14): a
// `parallel_dispatch` payload with `step_mode: "race"` whose tasks are the candidates, each with its
// own agent and intent, so consumers of parallel payloads run them as they run tasks; `candidates`
// repeats them for readers that know races.
import type { RaceIR, StepIR } from "../../checker/ir/types";
import type { PyDict } from "../../stdlib/values/value";
import type { Response, Wire } from "../wire/wire";
import { outputFields, retriesRemaining } from "./payloads";
import type { FlowRun } from "./run";

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
  const race = raceOf(step);
  const candidates: Wire = race.candidates.map((c) => ({ id: c.id, agent: c.agent, intent: c.intent }));
  const intent = step.intent ?? "";
  return {
    status: "parallel_dispatch",
    flow_id: run.state.flow_id,
    step_number: run.state.current_idx + 1,
    total_steps: run.flow.steps.length,
    step_id: step.id,
    step_mode: "race",
    tasks: candidates,
    agent: step.agent,
    // The keys every parallel payload has: all candidates may run at once, none needs a worktree.
    max_concurrent: race.candidates.length,
    isolation: "none",
    intent_template: intent,
    intent,
    inputs,
    output_contract: step.outputContract,
    output_fields: outputFields(
      step.outputContract === null ? undefined : run.spec.contracts.get(step.outputContract),
    ),
    ensure: step.ensure.map((e) => e.text),
    candidates,
    retries_remaining: retriesRemaining(run, step),
  };
}
