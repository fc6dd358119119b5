// stratumc's member steps (quorum, race, debate: docs/runtime.md §23.13 to docs/runtime.md §23.15)
// by kind, in one place: the payload of a dispatch and the judgement of reported members, which
// stratum_parallel_done (the consumer's reports) and the server path's poll (settled entries) share.
import type { StepIR } from "../../checker/ir/types";
import type { PyDict, PyValue } from "../../stdlib/values/value";
import type { Response } from "../wire/wire";
import { debatePayload } from "./kinds/debate/payload";
import { debateRoundDone } from "./kinds/debate/round";
import { quorumDone } from "./kinds/quorum/done";
import { quorumPayload } from "./kinds/quorum/payload";
import { raceDone } from "./kinds/race/done";
import { racePayload } from "./kinds/race/payload";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

/** The dispatch payload of a member step (the caller checked `runsMembers`). */
export function memberPayload(run: FlowRun, step: StepIR, inputs: PyDict): Response {
  if (step.kind === "quorum") return quorumPayload(run, step, inputs);
  if (step.kind === "race") return racePayload(run, step, inputs);
  return debatePayload(run, step, inputs);
}

/** One call's worth of member reports judged (the caller checked `runsMembers`). */
export function memberDone(tx: Tx, run: FlowRun, step: StepIR, reports: readonly PyValue[]): Response {
  if (step.kind === "quorum") return quorumDone(tx, run, step, reports);
  if (step.kind === "race") return raceDone(tx, run, step, reports);
  return debateRoundDone(tx, run, step, reports);
}
