// `stratum_parallel_done` on a race step (the consumer path, docs/reference/runtime.md §23.14): the agent runs
// the candidates itself and reports them as they finish, in as many calls as it likes. Each report
// is judged on arrival by the step's checks (contract, output_schema, ensure); the first candidate
// that passes wins — "first" is the order the server receives them in, list order within a call.
// A winner settles the attempt with its result and the answer names the candidates to cancel; no
// winner yet is `race_pending` (no attempt is used); every candidate reported without a winner is
// a lost race: an `ensure_failed` with one violation per candidate, so retries (a new race),
// exhaustion and on_fail follow the ordinary rules (step-done.ts). The race so far is kept in
// `judge_outcome[<step>]`, so a restarted server carries on where it stood.
import type { StepIR } from "../../../../checker/ir/types";
import { dictGetStr, dictSet } from "../../../../stdlib/values/dict";
import { withFields } from "../../../../stdlib/values/own-property";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import { toolError } from "../../../base/tool-errors";
import type { Response, Wire } from "../../../wire/wire";
import { putEntry } from "../../edits";
import type { FlowRun } from "../../run";
import { beginAttempt, settleAttempt } from "../../step-done";
import type { Tx } from "../../tx";
import { type MemberVerdict, type MemberViolation, memberViolation } from "../../violations";
import { type MemberReport, memberFailure, readMemberReports } from "../shared/member-reports";
import { candidateIds, raceOf } from "./payload";

/** One judged candidate: null `reason` when its result passed the step's checks. */
interface Judged {
  readonly id: string;
  readonly reason: MemberVerdict | null;
}

export function raceDone(tx: Tx, run: FlowRun, step: StepIR, taskResults: readonly PyValue[]): Response {
  const ids = candidateIds(raceOf(step));
  const reports = readMemberReports(step, taskResults, new Set(ids), {
    member: "candidate",
    stepKind: "race step",
    listed: ids.join(", "),
  });
  if (typeof reports === "string") return toolError("invalid_arguments", reports);
  const earlier = judgedSoFar(run, step);
  const again = [...reports.keys()].find((id) => earlier.some((j) => j.id === id));
  if (again !== undefined) {
    return toolError(
      "invalid_arguments",
      `candidate '${again}' of race step '${step.id}' was already reported`,
    );
  }
  let winner: MemberReport | undefined;
  const judged = [...earlier];
  const lost: MemberViolation[] = [];
  for (const report of reports.values()) {
    const reason = memberFailure(tx, run, step, report);
    judged.push({ id: report.id, reason });
    if (reason !== null) lost.push(memberViolation("candidate", report.id, reason));
    if (reason === null && winner === undefined) winner = report;
  }
  if (lost.length > 0)
    tx.note({ type: "members", flowId: run.state.flow_id, stepId: step.id, members: lost });
  const outstanding = ids.filter((id) => !judged.some((j) => j.id === id));
  putEntry(
    run,
    "judge_outcome",
    step.id,
    raceRecord(ids, judged, winner?.id ?? null, winner === undefined ? [] : outstanding),
  );
  const rejected = judged.flatMap((j) =>
    j.reason === null ? [] : [{ id: j.id, violations: [j.reason.why] }],
  );
  if (winner !== undefined) {
    const attempt = beginAttempt(run, step);
    const answer = settleAttempt(tx, run, step, null, winner.result, attempt, { ok: true });
    return withFields(answer, { race: { winner: winner.id, cancel: outstanding, rejected } });
  }
  if (outstanding.length > 0) {
    return {
      status: "race_pending",
      flow_id: run.state.flow_id,
      step_id: step.id,
      step_mode: "race",
      rejected,
      outstanding,
    };
  }
  const attempt = beginAttempt(run, step);
  const byMember = ids.map((id) => judged.find((j) => j.id === id));
  const reasons = byMember.map((j) =>
    memberViolation("candidate", j?.id ?? "", j?.reason ?? { status: "", reasons: [], error: null, why: "" }),
  );
  return settleAttempt(tx, run, step, null, null, attempt, { ok: false, status: "ensure_failed", reasons });
}

/** A poll's outcome that found the winner (it carries `race`): the candidates still running stop (docs/reference/runtime.md §23.16). */
export function raceWon(outcome: Wire): boolean {
  return (
    outcome !== null &&
    typeof outcome === "object" &&
    !Array.isArray(outcome) &&
    !(outcome instanceof Map) &&
    "race" in outcome &&
    (outcome as Response).race !== undefined
  );
}

/** The ids of the candidates this race has judged so far. */
export function judgedCandidates(run: FlowRun, step: StepIR): Set<string> {
  return new Set(judgedSoFar(run, step).map((j) => j.id));
}

/** The candidates judged in earlier calls of this race (the record dispatch left, or none). */
function judgedSoFar(run: FlowRun, step: StepIR): Judged[] {
  const record = run.state.judge_outcome.get(step.id);
  const reported = record instanceof PyDict ? dictGetStr(record, "reported") : undefined;
  if (!Array.isArray(reported)) return [];
  const out: Judged[] = [];
  for (const entry of reported) {
    if (!(entry instanceof PyDict)) continue;
    const id = dictGetStr(entry, "id");
    const reason = dictGetStr(entry, "reason");
    // The typed reasons of a candidate judged in an earlier call were in that call's events.
    const verdict: MemberVerdict | null =
      typeof reason === "string" ? { status: "judged_earlier", reasons: [], error: null, why: reason } : null;
    if (typeof id === "string") out.push({ id, reason: verdict });
  }
  return out;
}

/** `{candidates, reported: [{id, passed, reason}] (in arrival order), winner, cancelled}`. */
function raceRecord(
  ids: readonly string[],
  judged: readonly Judged[],
  winner: string | null,
  cancelled: readonly string[],
): PyDict {
  const record = new PyDict();
  dictSet(record, "candidates", [...ids]);
  dictSet(
    record,
    "reported",
    judged.map((j) => {
      const entry = new PyDict();
      dictSet(entry, "id", j.id);
      dictSet(entry, "passed", j.reason === null);
      dictSet(entry, "reason", j.reason === null ? null : j.reason.why);
      return entry;
    }),
  );
  dictSet(record, "winner", winner);
  dictSet(record, "cancelled", [...cancelled]);
  return record;
}
