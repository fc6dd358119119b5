// `stratum_parallel_done` on a quorum step (the consumer path, docs/reference/runtime.md §23.13): the agent
// ran the runs r1 … rN itself and reports them all at once. One call is one attempt: the runs are
// judged (evaluate.ts), the votes are kept in `judge_outcome[<step>]` (the audit shows
// them), and the attempt settles as any step's does — the winning result is the step's result; no
// agreement is an `ensure_failed` with the `no quorum …` violation, so retries (which re-dispatch
// all runs), exhaustion, on_fail and the StepRecord follow the ordinary rules (step-done.ts).
import type { StepIR } from "../../../../checker/ir/types";
import { withFields } from "../../../../stdlib/values/own-property";
import type { PyValue } from "../../../../stdlib/values/value";
import { toolError } from "../../../base/tool-errors";
import type { Response } from "../../../wire/wire";
import { putEntry } from "../../edits";
import type { CheckOutcome } from "../../result-checks";
import type { FlowRun } from "../../run";
import { beginAttempt, settleAttempt } from "../../step-done";
import type { Tx } from "../../tx";
import { type MemberReport, readMemberReports } from "../shared/member-reports";
import { judgeQuorum } from "./evaluate";
import { quorumOf, runIds } from "./payload";

export function quorumDone(tx: Tx, run: FlowRun, step: StepIR, taskResults: readonly PyValue[]): Response {
  const reports = readReports(step, taskResults);
  if (typeof reports === "string") return toolError("invalid_arguments", reports);
  const judgement = judgeQuorum(tx, run, step, reports);
  if (judgement.rejected.length > 0) {
    tx.note({ type: "members", flowId: run.state.flow_id, stepId: step.id, members: judgement.rejected });
  }
  putEntry(run, "judge_outcome", step.id, judgement.record);
  const attempt = beginAttempt(run, step);
  if (judgement.winner !== undefined) {
    const answer = settleAttempt(tx, run, step, null, judgement.winner.result, attempt, { ok: true });
    // Like a won race's `race`: the winner and the runs that voted for nothing (docs/reference/runtime.md §23.13).
    const rejected = judgement.rejected.map((m) => ({ id: m.member, violations: [m.verdict.why] }));
    return withFields(answer, { quorum: { winner: judgement.winner.id, rejected } });
  }
  const outcome: CheckOutcome = { ok: false, status: "ensure_failed", reasons: judgement.violations };
  return settleAttempt(tx, run, step, null, null, attempt, outcome);
}

/** The reports by run id, or why the call is refused. A run that is not reported counts as failed. */
function readReports(step: StepIR, taskResults: readonly PyValue[]): Map<string, MemberReport> | string {
  const ids = new Set(runIds(quorumOf(step)));
  return readMemberReports(step, taskResults, ids, {
    member: "run",
    stepKind: "quorum step",
    listed: `r1 … r${ids.size}`,
  });
}
