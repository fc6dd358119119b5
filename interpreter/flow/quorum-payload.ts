// The dispatch payload of a quorum step (stratumc's extension, docs/runtime.md §23.13): a
// `parallel_dispatch` payload with `step_mode: "quorum"` whose tasks are the runs r1 … rN, each
// with the step's intent, so consumers of parallel payloads run them as they run tasks.
import type { QuorumIR, StepIR } from "../../checker/ir/types";
import type { PyDict } from "../../stdlib/values/value";
import type { Response, Wire } from "../wire/wire";
import { writtenNumber } from "./parallel-payloads";
import { outputFields } from "./payloads";
import type { FlowRun } from "./run";

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
  const tasks: Wire = runIds(quorum).map((id) => ({ id, intent }));
  return {
    status: "parallel_dispatch",
    flow_id: run.state.flow_id,
    step_number: run.state.current_idx + 1,
    total_steps: run.flow.steps.length,
    step_id: step.id,
    step_mode: "quorum",
    tasks,
    agent: step.agent,
    // The keys every parallel payload has: all runs may run at once, none needs a worktree.
    max_concurrent: quorum.runs,
    isolation: "none",
    intent_template: intent,
    intent,
    inputs,
    output_contract: step.outputContract,
    output_fields: outputFields(
      step.outputContract === null ? undefined : run.spec.contracts.get(step.outputContract),
    ),
    ensure: step.ensure.map((e) => e.text),
    runs: quorum.runs,
    agree_on: quorum.agreeOn.text,
    threshold: writtenNumber(quorum.threshold),
    required_votes: requiredVotes(quorum),
    retries_remaining: step.retries - (run.state.attempts.get(step.id) ?? 0),
  };
}
