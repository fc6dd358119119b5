// `pre_merge_verify` of a server-run parallel_dispatch step (docs/reference/runtime.md §23.6): the
// commands a completed task's worktree must pass before its diff is kept, resolved at start as
// the reference resolves them, and the `gate_failed` bounce record a failing command leaves on the
// task's entry, which poll and advance add to the step's `bounced_tasks`. The host runs the
// commands (ParallelAgentRunner); the core only says which and records what came back.
import type { StepIR } from "../../checker/ir/types";
import { isSpaceCp } from "../../stdlib/builtins/unicode";
import { dictGetStr, dictSet } from "../../stdlib/values/dict";
import { PyDict, type PyValue } from "../../stdlib/values/value";
import { ExecutionFailure } from "../base/tool-errors";
import { resolveValue } from "./inputs";
import type { GateBounce } from "./parallel-runner";
import { entryState } from "./parallel-tasks";
import type { FlowRun } from "./run";

/**
 * The commands as the reference's resolver gives them: a list as written; a string beginning with
 * `$` resolved as a reference (one that does not resolve, or resolves to anything but a list, is no
 * gate); another string is one command. Only strings that are not blank are kept.
 */
export function resolvePreMergeVerify(run: FlowRun, step: StepIR): string[] {
  const written = step.preMergeVerify;
  if (written === null) return [];
  let commands: PyValue;
  if (typeof written !== "string") commands = [...written];
  else if (!written.startsWith("$")) commands = [written];
  else {
    try {
      commands = resolveValue(run, written);
    } catch (e) {
      if (e instanceof ExecutionFailure) return [];
      throw e;
    }
  }
  if (!Array.isArray(commands)) return [];
  return (commands as readonly PyValue[]).filter((c): c is string => typeof c === "string" && !blank(c));
}

/** Python's `not s.strip()`. */
function blank(s: string): boolean {
  for (const ch of s) if (!isSpaceCp(ch.codePointAt(0) ?? 0)) return false;
  return true;
}

/** The task entry's `gate_bounce`, with the reference's keys in its order (task_id stamped last). */
export function gateBounceValue(taskId: string, bounce: GateBounce): PyDict {
  const d = new PyDict();
  dictSet(d, "reason", "gate_failed");
  dictSet(d, "command", bounce.command);
  dictSet(d, "exit_code", bounce.exitCode);
  dictSet(d, "files", [...bounce.files]);
  dictSet(d, "excerpt", bounce.excerpt);
  dictSet(d, "task_id", taskId);
  return d;
}

/** The task's error when its gate failed. */
export function gateError(bounce: GateBounce): string {
  return `pre_merge_verify failed: ${bounce.command}`;
}

/** The gate bounces of the failed entries, in entry order (the first part of `bounced_tasks`). */
export function gateBouncesOf(entries: ReadonlyMap<string, PyValue>): PyValue[] {
  const out: PyValue[] = [];
  for (const value of entries.values()) {
    if (!(value instanceof PyDict) || entryState(value) !== "failed") continue;
    const bounce = dictGetStr(value, "gate_bounce");
    if (bounce instanceof PyDict) out.push(bounce);
  }
  return out;
}
