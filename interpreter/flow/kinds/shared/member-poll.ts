// `stratum_parallel_poll` on a quorum, race or debate step run server-side
// (docs/reference/runtime.md §23.16): the members' entries and their summary as for a parallel step, and
// the judgement once there is something to judge — a quorum when every run has settled
// (quorum/done.ts), a debate's round when every debater has (debate/round.ts; its entries are then
// dropped so the next round can be started), a race at each poll that finds candidates settled
// since the last judgement (race/done.ts: a winner advances the flow and the engine cancels the
// candidates still running). One poll is one committed call.
import type { StepIR } from "../../../../checker/ir/types";
import { dictGetStr, dictSet } from "../../../../stdlib/values/dict";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import type { Response } from "../../../wire/wire";
import { currentStep } from "../../current";
import { parallelToolError } from "../../parallel-errors";
import { dropTaskEntries, entryState, stateSummary, TERMINAL_TASK_STATES } from "../../parallel-tasks";
import type { FlowRun } from "../../run";
import type { Tx } from "../../tx";
import type { MemberKindParts } from "./member-kind";

const NOT_ADVANCED: ReadonlySet<unknown> = new Set([
  "error",
  "ensure_failed",
  "schema_failed",
  "guardrail_blocked",
  "race_pending",
  "already_advanced",
]);

export function memberPoll(
  tx: Tx,
  seen: FlowRun,
  step: StepIR,
  entries: ReadonlyMap<string, PyValue>,
  parts: MemberKindParts,
): Response {
  const summary = stateSummary(entries.values());
  const settled = [...entries].filter(([, v]) => TERMINAL_TASK_STATES.has(entryState(v)));
  let outcome: Response | null = null;
  if (currentStep(seen)?.id !== step.id) {
    outcome = { status: "already_advanced" };
  } else {
    // A quorum and a debate's round are judged whole; a race candidate by candidate.
    const judged = parts.judgedSoFar?.(seen, step);
    const toJudge =
      judged === undefined
        ? settled.length === entries.size
          ? settled
          : []
        : settled.filter(([id]) => !judged.has(id));
    if (toJudge.length > 0) {
      const run = tx.edit(seen.state.flow_id);
      if (run === null)
        return parallelToolError("flow_not_found", `No active flow with id '${seen.state.flow_id}'`);
      const reports = toJudge.map(([id, value]) => reportOf(id, value));
      outcome = parts.done(tx, run, step, reports);
      // The next round (or the same one again) is started afresh by stratum_parallel_start.
      if (parts.entriesPerRound) dropTaskEntries(run);
    }
  }
  // The step advanced at this poll (a quorum's agreement, a race's winner, a debate's round).
  const succeeded = outcome !== null && !NOT_ADVANCED.has(outcome.status);
  return {
    flow_id: seen.state.flow_id,
    step_id: step.id,
    summary,
    tasks: entries,
    require_satisfied: succeeded,
    can_advance: succeeded,
    outcome,
  };
}

/** A settled entry as stratum_parallel_done would report it (cancelled counts as failed). */
function reportOf(id: string, value: PyValue): PyDict {
  const d = new PyDict();
  dictSet(d, "task_id", id);
  dictSet(d, "status", entryState(value) === "complete" ? "complete" : "failed");
  const result = value instanceof PyDict ? (dictGetStr(value, "result") ?? null) : null;
  dictSet(d, "result", result);
  const error = value instanceof PyDict ? dictGetStr(value, "error") : undefined;
  if (typeof error === "string") dictSet(d, "error", error);
  return d;
}
