// A pipeline step on the server path (docs/reference/runtime.md §4.8, docs/reference/runtime.md §23.5
// to docs/reference/runtime.md §23.8): stratum_parallel_start runs its unfolded stage tasks through the executor
// (executor-plan.ts), poll reads their entries — `skipped` counted in the summary and reported as
// `skipped` to the judgement, as 0.2.69 does — and, once all have settled, settles the element
// aggregate exactly as stratum_parallel_done does (done.ts). Pipelines have no defer_advance.
import type { StepIR } from "../../../../checker/ir/types";
import { dictGetStr, dictSet } from "../../../../stdlib/values/dict";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import type { StepArgs } from "../../../api";
import { ExecutionFailure } from "../../../base/tool-errors";
import type { Response } from "../../../wire/wire";
import { CLEAN_MERGE } from "../../merge-report";
import { parallelToolError } from "../../parallel-errors";
import type { StartedTask } from "../../parallel-start";
import { entryResult, entryState, TERMINAL_TASK_STATES } from "../../parallel-tasks";
import { type PollJudgement, pollAnswer } from "../../poll-answer";
import type { FlowRun } from "../../run";
import type { Tx } from "../../tx";
import { settlePipelineResults } from "./done";
import { evaluatePipelineResults } from "./evaluate";
import { sourceElements } from "./payload";
import { pipelineOf, unfoldPipeline } from "./tasks";

/** Branch isolation runs only on the consumer's side (as for a parallel step). */
export function refusePipelineStart(_run: FlowRun, step: StepIR): Response | null {
  if (pipelineOf(step).isolation !== "branch") return null;
  const prose =
    "branch-mode isolation is not yet supported in server-side parallel dispatch (see roadmap T2-F5-BRANCH). Use 'worktree' or 'none'.";
  return parallelToolError("branch_isolation_unsupported", prose, prose);
}

/** The unfolded graph, or null when the source does not resolve to a list now. */
function graphOf(run: FlowRun, step: StepIR): PyDict[] | null {
  try {
    return unfoldPipeline(step, sourceElements(run, step));
  } catch (e) {
    if (e instanceof ExecutionFailure) return null;
    throw e;
  }
}

/** The stage tasks, or start's answer: `source_resolution_failed`, `no_tasks` (no element). */
export function pipelineStartTasks(run: FlowRun, step: StepIR): StartedTask[] | Response {
  let graph: PyDict[];
  try {
    graph = unfoldPipeline(step, sourceElements(run, step));
  } catch (e) {
    if (!(e instanceof ExecutionFailure)) throw e;
    return parallelToolError(
      "source_resolution_failed",
      `Could not resolve tasks for step '${step.id}': ${e.message}`,
    );
  }
  if (graph.length === 0) {
    return parallelToolError("no_tasks", `Step '${step.id}' source resolved to zero tasks.`);
  }
  return graph.map((task) => ({ id: String(dictGetStr(task, "id") ?? ""), task }));
}

export function pipelineTaskIds(run: FlowRun, step: StepIR): ReadonlySet<string> {
  const graph = graphOf(run, step);
  return new Set((graph ?? []).map((task) => String(dictGetStr(task, "id") ?? "")));
}

/** Entries as done-style results: `complete` and `skipped` kept, anything else `failed`. */
export function taskResultsOf(entries: ReadonlyMap<string, PyValue>): PyValue[] {
  return [...entries].map(([id, value]) => {
    const state = entryState(value);
    const d = new PyDict();
    dictSet(d, "task_id", id);
    dictSet(d, "result", entryResult(value));
    dictSet(d, "status", state === "complete" || state === "skipped" ? state : "failed");
    return d;
  });
}

export function pollPipeline(
  tx: Tx,
  seen: FlowRun,
  step: StepIR,
  entries: ReadonlyMap<string, PyValue>,
  args: StepArgs,
): Response {
  const settled = [...entries.values()].every((v) => TERMINAL_TASK_STATES.has(entryState(v)));
  const judge = (): PollJudgement => {
    const results = taskResultsOf(entries);
    const graph = graphOf(seen, step) ?? [];
    const evaluation = evaluatePipelineResults(step, graph, results, CLEAN_MERGE);
    // Merge is clean here, so the step can advance exactly when `require` holds.
    const requireSatisfied = dictGetStr(evaluation.aggregate, "require_satisfied") === true;
    return {
      requireSatisfied,
      canAdvance: requireSatisfied,
      aggregate: evaluation.aggregate,
      deferred: false,
      advance: (run) => settlePipelineResults(tx, run, step, results, CLEAN_MERGE),
    };
  };
  return pollAnswer(tx, seen, step, entries, args, settled ? judge : null);
}

/** stratum_parallel_advance: a pipeline never defers its advance (poll advances it). */
export function advancePipeline(_tx: Tx, _seen: FlowRun, _step: StepIR, args: StepArgs): Response {
  return parallelToolError(
    "advance_not_deferred",
    `Step '${args.step_id}' does not have defer_advance: true. Auto-advance fires from stratum_parallel_poll; this tool is a no-op.`,
  );
}
