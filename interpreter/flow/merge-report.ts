// The merge status a consumer reports for a parallel step (docs/reference/runtime.md "parallel
// steps", as of 0.2.69): the bare string `'clean' | 'conflict'`, or an object
// `{status, bounced_tasks?}` whose bounce records say which tasks' work was not merged and why.
// The step is decided on `status` alone; the records are surfaced as they were given
// (`bounced_tasks` on every failure envelope) and worded as violations.
import { dictGetStr } from "../../stdlib/values/dict";
import { withFields } from "../../stdlib/values/own-property";
import { str } from "../../stdlib/values/repr";
import { PyDict, type PyValue } from "../../stdlib/values/value";
import type { Response } from "../wire/wire";
import type { Violation } from "./violations";

export interface MergeReport {
  /** The derived merge status (`status` of the object form, `'clean'` when it has none). */
  readonly status: string;
  /** The bounce records, in the order given (empty for the string form). */
  readonly bounced: readonly PyValue[];
}

export const CLEAN_MERGE: MergeReport = { status: "clean", bounced: [] };

/** The merge status argument read as the reference reads it: a missing `status` is clean. */
export function mergeReportOf(arg: string | PyDict): MergeReport {
  if (typeof arg === "string") return { status: arg, bounced: [] };
  const status = dictGetStr(arg, "status");
  const bounced = dictGetStr(arg, "bounced_tasks");
  return {
    status: typeof status === "string" ? status : "clean",
    bounced: Array.isArray(bounced) ? bounced : [],
  };
}

/**
 * One violation per bounce whose `reason` is `gate_failed` or `merge_conflict` (other reasons are
 * carried in `bounced_tasks` only), worded as the reference words them.
 */
export function bounceViolations(bounced: readonly PyValue[]): Violation[] {
  const out: Violation[] = [];
  for (const bounce of bounced) {
    if (!(bounce instanceof PyDict)) continue;
    const task = field(bounce, "task_id", "?");
    const reason = dictGetStr(bounce, "reason");
    if (reason === "gate_failed") {
      const command = field(bounce, "command", "None");
      const exit = field(bounce, "exit_code", "None");
      out.push({
        kind: "bounce",
        task,
        reason,
        text: `task '${task}' failed pre-merge gate \`${command}\` (exit ${exit}) — diff NOT merged`,
      });
    } else if (reason === "merge_conflict") {
      const files = dictGetStr(bounce, "files");
      // Python joins a string's characters, as the reference does with a bare `files` string.
      const names = Array.isArray(files)
        ? files.map((f) => str(f))
        : typeof files === "string"
          ? [...files]
          : [];
      const listed = names.join(", ");
      out.push({
        kind: "bounce",
        task,
        reason,
        text: `task '${task}' merge conflict on ${listed === "" ? "(unknown files)" : listed}`,
      });
    }
  }
  return out;
}

/** `bounced_tasks` added to a failure envelope (one carrying `violations`); other responses unchanged. */
export function withBouncedTasks(response: Response, bounced: readonly PyValue[]): Response {
  if (response.violations === undefined) return response;
  return withFields(response, { bounced_tasks: [...bounced] });
}

function field(bounce: PyDict, key: string, absent: string): string {
  const value = dictGetStr(bounce, key);
  return value === undefined ? absent : str(value);
}
