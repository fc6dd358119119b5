// The dispatch payloads of a debate step (stratumc's extension, docs/reference/runtime.md §23.15). A round is
// a `parallel_dispatch` payload with `step_mode: "debate"` whose tasks are the debaters, each intent
// followed by the history so far as readable text, so consumers of parallel payloads run a round as
// they run tasks; `history` carries the same arguments as data. The synthesis is an `execute_step`
// payload with `step_mode: "synthesis"` and the full history.
import type { MemberIR, StepIR } from "../../../../checker/ir/types";
import { toJson } from "../../../../stdlib/values/json";
import type { PyDict } from "../../../../stdlib/values/value";
import type { Response, Wire } from "../../../wire/wire";
import { outputFields, position, retriesRemaining } from "../../payloads";
import type { FlowRun } from "../../run";
import { memberPayloadHead } from "../shared/member-payload";
import { type DebateProgress, debateOf, historyWire, readProgress } from "./state";

/** The payload of where the debate stands: the next round, or the synthesis. */
export function debatePayload(run: FlowRun, step: StepIR, inputs: PyDict): Response {
  const progress = readProgress(run, step);
  return progress.phase === "synthesis"
    ? synthesisPayload(run, step, inputs, progress)
    : roundPayload(run, step, inputs, progress);
}

export function roundPayload(run: FlowRun, step: StepIR, inputs: PyDict, progress: DebateProgress): Response {
  const debate = debateOf(step);
  const round = progress.round + 1;
  const tasks: Wire[] = debate.debaters.map((d) => ({
    id: d.id,
    agent: d.agent,
    intent: debaterIntent(d, progress, round, debate.rounds),
  }));
  const contract = contractNamed(run, debate.argumentContract);
  return {
    ...memberPayloadHead(run, step, "debate", tasks),
    intent: step.intent,
    inputs,
    round,
    rounds: debate.rounds,
    history: historyWire(progress.history),
    argument_contract: debate.argumentContract,
    argument_fields: outputFields(contract),
    converge: debate.converge?.text ?? null,
    retries_remaining: retriesRemaining(run, step),
  };
}

export function synthesisPayload(
  run: FlowRun,
  step: StepIR,
  inputs: PyDict,
  progress: DebateProgress,
): Response {
  const synthesis = debateOf(step).synthesis;
  return {
    status: "execute_step",
    flow_id: run.state.flow_id,
    ...position(run),
    step_id: step.id,
    step_mode: "synthesis",
    intent: synthesis.intent,
    agent: synthesis.agent,
    inputs,
    output_contract: synthesis.outputContract,
    output_fields: outputFields(contractNamed(run, synthesis.outputContract)),
    ensure: step.ensure.map((e) => e.text),
    history: historyWire(progress.history),
    rounds_played: progress.round,
    converged: progress.converged,
    retries_remaining: synthesis.retries - (run.state.attempts.get(step.id) ?? 0),
  };
}

function contractNamed(run: FlowRun, name: string | null) {
  return name === null ? undefined : run.spec.contracts.get(name);
}

/** The debater's intent, then the round it is in and every earlier argument (JSON, one per line). */
export function debaterIntent(
  debater: MemberIR,
  progress: DebateProgress,
  round: number,
  rounds: number,
): string {
  const lines = [debater.intent, "", `Debate round ${round} of ${rounds}; you are '${debater.id}'.`];
  if (progress.history.length === 0) {
    lines.push("No arguments yet: this is the opening round.");
    return lines.join("\n");
  }
  lines.push("Arguments so far:");
  progress.history.forEach((arguments_, i) => {
    lines.push(`Round ${i + 1}:`);
    for (const a of arguments_) lines.push(`- ${a.id}: ${toJson(a.argument, { ensureAscii: false })}`);
  });
  return lines.join("\n");
}
