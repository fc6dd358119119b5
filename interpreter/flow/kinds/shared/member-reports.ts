// The member reports of stratumc's member steps (quorum runs, race candidates:
// docs/reference/runtime.md §23.13 and docs/reference/runtime.md §23.14) as `stratum_parallel_done` carries them:
// `{task_id, status, result?, error?}`, read and refused in one place, and why a reported
// member's result does not count.
import type { StepIR } from "../../../../checker/ir/types";
import { dictGetStr } from "../../../../stdlib/values/dict";
import { repr } from "../../../../stdlib/values/repr";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import { checkResult } from "../../result-checks";
import type { FlowRun } from "../../run";
import type { Tx } from "../../tx";
import { joined, type MemberVerdict } from "../../violations";

/** One reported member: `{task_id, status, result?, error?}`. */
export interface MemberReport {
  readonly id: string;
  readonly status: string;
  readonly result: PyValue;
  readonly error: string | null;
}

/** How the refusals name the members: "run" of a "quorum step" (r1 … rN), … */
export interface MemberNaming {
  readonly member: string;
  readonly stepKind: string;
  /** The ids as the message lists them, e.g. "r1 … r5". */
  readonly listed: string;
}

/**
 * The reports by member id, in the order given, or why the call is refused (nothing is committed
 * then): every entry an object with a `task_id` that names a member of the step, each member at
 * most once in the call.
 */
export function readMemberReports(
  step: StepIR,
  taskResults: readonly PyValue[],
  ids: ReadonlySet<string>,
  naming: MemberNaming,
): Map<string, MemberReport> | string {
  const out = new Map<string, MemberReport>();
  for (const [i, entry] of taskResults.entries()) {
    if (!(entry instanceof PyDict)) return `task_results[${i}]: expected an object with task_id`;
    const id = dictGetStr(entry, "task_id");
    if (typeof id !== "string" || !ids.has(id)) {
      const shown = id === undefined ? "missing" : repr(id);
      return `task_results[${i}].task_id: ${shown} is not a ${naming.member} of ${naming.stepKind} '${step.id}' (${naming.listed})`;
    }
    if (out.has(id)) return `task_results[${i}].task_id: ${naming.member} '${id}' is reported twice`;
    const status = dictGetStr(entry, "status");
    out.set(id, {
      id,
      status: typeof status === "string" ? status : "failed",
      result: dictGetStr(entry, "result") ?? null,
      error: reportError(entry),
    });
  }
  return out;
}

/**
 * Why a member's result does not count, or null when it passed the step's checks (contract,
 * output_schema, ensure): not reported, reported with another status than `complete`, or failing.
 */
export function memberFailure(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  report: MemberReport | undefined,
): MemberVerdict | null {
  const refused = reportRefusal(report);
  if (refused !== null || report === undefined) return refused;
  const checked = checkResult(tx, run, step, report.result);
  if (checked.ok) return null;
  return {
    status: checked.status,
    reasons: checked.reasons,
    error: null,
    why: `${checked.status}: ${joined(checked.reasons)}`,
  };
}

/** A member that was not reported, or reported with another status than `complete`; else null. */
export function reportRefusal(report: MemberReport | undefined): MemberVerdict | null {
  if (report === undefined) return { status: "not_reported", reasons: [], error: null, why: "not reported" };
  if (report.status === "complete") return null;
  const why = `${report.status}${report.error === null ? "" : `: ${report.error}`}`;
  return { status: report.status, reasons: [], error: null, why };
}

/** The `error` of a report as text (absent or null: null). */
function reportError(entry: PyDict): string | null {
  const error = dictGetStr(entry, "error");
  return error === undefined || error === null ? null : typeof error === "string" ? error : repr(error);
}
