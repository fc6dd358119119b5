// The dispatch payload of a quorum step (stratumc's extension, docs/reference/runtime.md §23.13): a
// `parallel_dispatch` payload with `step_mode: "quorum"` whose tasks are the runs r1 … rN, each
// with the step's intent, so consumers of parallel payloads run them as they run tasks.
import type { QuorumIR, StepIR } from "../../../../checker/ir/types";
import type { PyDict } from "../../../../stdlib/values/value";
import type { Response, Wire } from "../../../wire/wire";
import { retriesRemaining, writtenNumber } from "../../payloads";
import type { FlowRun } from "../../run";
import { memberPayloadHead, memberResultChecks } from "../shared/member-payload";

/** A quorum step's keys (present exactly on quorum steps). */
export function quorumOf(step: StepIR): QuorumIR {
  const quorum = step.quorum ?? null;
  if (quorum === null) throw new Error(`step '${step.id}' is not a quorum step`);
  return quorum;
}

/** The member ids of a quorum step, in member order: r1 … rN. */
export function runIds(quorum: QuorumIR): string[] {
  return Array.from({ length: quorum.runs }, (_, i) => `r${i + 1}`);
}

/**
 * The votes the winning group needs: a fraction f (a float ≤ 1) is ceil(f × runs) — computed with a
 * small tolerance so that 0.6 × 5 is 3, not the 4 that binary floating point would give — and a
 * count is itself (an integral float such as 3.0 counts as 3).
 */
export function requiredVotes(quorum: QuorumIR): number {
  const { value, float } = quorum.threshold;
  if (float && value <= 1) return Math.ceil(value * quorum.runs - 1e-9);
  return value;
}

export function quorumPayload(run: FlowRun, step: StepIR, inputs: PyDict): Response {
  const quorum = quorumOf(step);
  const intent = step.intent ?? "";
  const tasks: Wire[] = runIds(quorum).map((id) => ({ id, intent }));
  return {
    ...memberPayloadHead(run, step, "quorum", tasks),
    ...memberResultChecks(run, step, inputs),
    runs: quorum.runs,
    agree_on: quorum.agreeOn.text,
    threshold: writtenNumber(quorum.threshold),
    required_votes: requiredVotes(quorum),
    retries_remaining: retriesRemaining(run, step),
  };
}
