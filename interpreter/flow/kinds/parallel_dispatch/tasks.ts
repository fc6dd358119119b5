// A version 0.3 parallel step's tasks as stratum_parallel_start, poll and advance find them: its
// `source` resolved now (docs/reference/runtime.md §23.6), each task an object with a string `id`.
import type { StepIR } from "../../../../checker/ir/types";
import { dictGetStr } from "../../../../stdlib/values/dict";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import { ExecutionFailure } from "../../../base/tool-errors";
import type { Response } from "../../../wire/wire";
import { resolveValue } from "../../inputs";
import { parallelToolError } from "../../parallel-errors";
import type { StartedTask } from "../../parallel-start";
import { taskGraphOf, taskGraphProblem } from "../../parallel-task-graph";
import type { FlowRun } from "../../run";
import { parallelOf } from "./payload";

/** Branch isolation runs only on the consumer's side. */
export function refuseBranchIsolation(_run: FlowRun, step: StepIR): Response | null {
  if (parallelOf(step).isolation !== "branch") return null;
  const prose =
    "branch-mode isolation is not yet supported in server-side parallel dispatch (see roadmap T2-F5-BRANCH). Use 'worktree' or 'none'.";
  return parallelToolError("branch_isolation_unsupported", prose, prose);
}

/**
 * The task list, or the error answer: `source_resolution_failed`, `no_tasks` (null or an empty
 * list), and, where the reference crashes, `invalid_tasks` (not a list, a task that is not an
 * object with a string `id`, an inconsistent dependency graph).
 */
export function sourceTasks(run: FlowRun, step: StepIR): StartedTask[] | Response {
  let value: PyValue;
  try {
    value = resolveValue(run, parallelOf(step).source);
  } catch (e) {
    if (!(e instanceof ExecutionFailure)) throw e;
    return parallelToolError(
      "source_resolution_failed",
      `Could not resolve tasks for step '${step.id}': ${e.message}`,
    );
  }
  if (value === null || (Array.isArray(value) && value.length === 0)) {
    return parallelToolError("no_tasks", `Step '${step.id}' source resolved to zero tasks.`);
  }
  if (!Array.isArray(value)) {
    return parallelToolError("invalid_tasks", `Step '${step.id}' source did not resolve to a list of tasks.`);
  }
  const tasks: StartedTask[] = [];
  for (const [i, task] of (value as readonly PyValue[]).entries()) {
    const id = task instanceof PyDict ? dictGetStr(task, "id") : undefined;
    if (!(task instanceof PyDict) || typeof id !== "string") {
      return parallelToolError(
        "invalid_tasks",
        `Task ${i} of step '${step.id}' is not an object with a string 'id'.`,
      );
    }
    tasks.push({ id, task });
  }
  const problem = taskGraphProblem(taskGraphOf(value));
  if (problem !== null) return parallelToolError("invalid_tasks", `Step '${step.id}': ${problem}`);
  return tasks;
}

/** The `id` of every task; empty when `source` does not resolve to such a list (as the reference). */
export function sourceTaskIds(run: FlowRun, step: StepIR): ReadonlySet<string> {
  let value: PyValue;
  try {
    value = resolveValue(run, parallelOf(step).source);
  } catch (e) {
    if (e instanceof ExecutionFailure) return new Set();
    throw e;
  }
  if (!Array.isArray(value)) return new Set();
  const ids = new Set<string>();
  for (const task of value as readonly PyValue[]) {
    const id = task instanceof PyDict ? dictGetStr(task, "id") : undefined;
    if (typeof id !== "string") return new Set();
    ids.add(id);
  }
  return ids;
}
