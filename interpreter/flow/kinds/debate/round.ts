// `stratum_parallel_done` on a debate step (stratumc's extension, docs/reference/runtime.md §23.15): the
// agent reports one round's arguments, one per debater. Each argument is checked against
// argument_contract; a round where every debater passed is appended to the history and `converge`
// is evaluated — then the debate goes on to the next round, or to the synthesis when it converged
// or the last round is done. A round with a failing argument (or a raising converge) is not kept:
// it is dispatched again (the whole round) while the step's `retries` per round allow, then the
// step fails as any step does (retries_exhausted or on_fail, with a StepRecord).
import type { StepIR } from "../../../../checker/ir/types";
import { withFields } from "../../../../stdlib/values/own-property";
import { truthy } from "../../../../stdlib/values/truth";
import type { PyValue } from "../../../../stdlib/values/value";
import { toolError } from "../../../base/tool-errors";
import type { Response } from "../../../wire/wire";
import { deleteEntry } from "../../edits";
import { bindable, evaluateIn } from "../../expressions";
import { resolveInputs } from "../../inputs";
import type { FlowRun } from "../../run";
import { beginAttempt, exhaust, rejected } from "../../step-done";
import type { Tx } from "../../tx";
import {
  contractViolations,
  convergeRaised,
  joined,
  type MemberVerdict,
  type MemberViolation,
  memberViolation,
  type Violation,
} from "../../violations";
import { type MemberReport, readMemberReports, reportRefusal } from "../shared/member-reports";
import { roundPayload, synthesisPayload } from "./payload";
import { type Argument, type DebateProgress, debateOf, readProgress, writeProgress } from "./state";

export function debateRoundDone(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  taskResults: readonly PyValue[],
): Response {
  const debate = debateOf(step);
  const progress = readProgress(run, step);
  if (progress.phase === "synthesis") {
    return toolError(
      "wrong_step_type",
      `Debate step '${step.id}' has finished its rounds and waits for its synthesis: report the synthesis with stratum_step_done.`,
    );
  }
  const ids = debate.debaters.map((d) => d.id);
  const reports = readMemberReports(step, taskResults, new Set(ids), {
    member: "debater",
    stepKind: "debate step",
    listed: ids.join(", "),
  });
  if (typeof reports === "string") return toolError("invalid_arguments", reports);
  const attempt = beginAttempt(run, step);
  const round = progress.round + 1;
  const members: MemberViolation[] = [];
  const args: Argument[] = [];
  for (const id of ids) {
    const verdict = argumentFailure(run, debate.argumentContract, reports.get(id));
    if (verdict === null) args.push({ id, argument: reports.get(id)?.result ?? null });
    else members.push(memberViolation("debater", id, verdict));
  }
  if (members.length > 0) tx.note({ type: "members", flowId: run.state.flow_id, stepId: step.id, members });
  const reasons: Violation[] = [...members];
  if (members.length === 0) {
    const history = [...progress.history, args];
    const converged = convergence(tx, run, step, args, history, round);
    if (typeof converged === "boolean")
      return roundPassed(run, step, { ...progress, round, history, converged });
    reasons.push(converged.violation);
  }
  const failed = members.map((m) => [m.member, m.verdict.why] as const);
  const exhausted = attempt >= step.retries;
  const kept: DebateProgress = { ...progress, failed, phase: exhausted ? "failed" : progress.phase };
  writeProgress(run, step, kept);
  if (exhausted) return exhaust(tx, run, step, null, null, attempt, reasons);
  const violations = rejected(tx, run, step, reasons);
  return withFields(roundPayload(run, step, resolveInputs(run, step), kept), {
    status: "ensure_failed",
    violations,
  });
}

/** Keeps the round; the next round's payload, or the synthesis's when the debate is over. */
function roundPassed(run: FlowRun, step: StepIR, next: Omit<DebateProgress, "phase" | "failed">): Response {
  const over = next.converged || next.round >= debateOf(step).rounds;
  const progress: DebateProgress = { ...next, phase: over ? "synthesis" : "rounds", failed: [] };
  writeProgress(run, step, progress);
  // Each round and the synthesis count their own attempts.
  deleteEntry(run, "attempts", step.id);
  const inputs = resolveInputs(run, step);
  return over ? synthesisPayload(run, step, inputs, progress) : roundPayload(run, step, inputs, progress);
}

/** Why a reported argument is not accepted, or null: not reported, not complete, or off contract. */
function argumentFailure(
  run: FlowRun,
  contractName: string | null,
  report: MemberReport | undefined,
): MemberVerdict | null {
  const refused = reportRefusal(report);
  if (refused !== null || report === undefined) return refused;
  const contract = contractName === null ? undefined : run.spec.contracts.get(contractName);
  if (contract === undefined) return null;
  const reasons = contractViolations(report.result, contract, run.spec);
  return reasons.length === 0 ? null : { status: "off_contract", reasons, error: null, why: joined(reasons) };
}

/** `converge` with round, history (this round included) and round_number; false without one. */
function convergence(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  round: readonly Argument[],
  history: readonly (readonly Argument[])[],
  roundNumber: number,
): boolean | { readonly violation: Violation } {
  const converge = debateOf(step).converge;
  if (converge === null) return false;
  const names = new Map<string, PyValue>([
    ["round", round.map((a) => bindable(a.argument))],
    ["history", history.map((r) => r.map((a) => bindable(a.argument)))],
    ["round_number", roundNumber],
  ]);
  const evaluation = evaluateIn(tx, run, converge, names);
  if (!evaluation.ok) return { violation: convergeRaised(converge.text, evaluation.error) };
  return truthy(evaluation.value);
}
