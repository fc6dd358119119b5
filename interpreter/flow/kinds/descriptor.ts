// What the interpreter does differently per step kind, as data: one object per kind
// (kinds/<kind>.ts) in the registry (kinds/index.ts). The tools ask the registry instead of
// branching on the kind; what a kind does not have (server-side tasks, reports by
// stratum_parallel_done) is an absent field, and the tool answers as for any other step without it.
import type { StepMode } from "../../../checker/base/step-kinds";
import type { StepIR } from "../../../checker/ir/types";
import type { PyValue } from "../../../stdlib/values/value";
import type { ParallelAdvanceArgs, StepArgs } from "../../api";
import type { Response, Wire } from "../../wire/wire";
import type { DispatchOptions } from "../dispatch";
import type { ExecutorPlan } from "../executor-plan";
import type { MergeReport } from "../merge-report";
import type { StartedTask } from "../parallel-start";
import type { FlowRun } from "../run";
import type { Tx } from "../tx";

export interface FlowKind {
  /** The `step_mode` payloads, records, errors and events name the kind by (docs/reference/runtime.md §11.1). */
  readonly stepMode: StepMode;
  /**
   * The payload of the step the agent acts on next (its skip_if did not hold): the step's inputs
   * resolved and its dispatch time noted, except a gate's, which waits with unresolved inputs.
   */
  dispatch(tx: Tx, run: FlowRun, step: StepIR, options: DispatchOptions): Response;
  /**
   * Answers the step from the result cache instead of dispatching it (docs/reference/runtime.md §25.4): true when it did, the step recorded and the flow moved on.
   */
  readonly replay?: (tx: Tx, run: FlowRun, step: StepIR) => boolean;
  /** stratum_step_done answered by the kind itself instead of the ordinary check (a debate's synthesis). */
  readonly stepDone?: (tx: Tx, run: FlowRun, step: StepIR, result: PyValue) => Response;
  /** stratum_parallel_done: tasks or members reported by the agent (else `wrong_step_type`). */
  readonly parallelDone?: (
    tx: Tx,
    run: FlowRun,
    step: StepIR,
    taskResults: readonly PyValue[],
    merge: MergeReport,
  ) => Response;
  /** The step's tasks run by the server (stratum_parallel_start, poll, advance; else `wrong_step_type`). */
  readonly server?: ServerTasks;
  /** The `stratum_audit` key of the step's `judge_outcome` entry (a member step's judgement). */
  readonly judgementKey?: string;
}

/** A kind whose tasks the server's executor can run (docs/reference/runtime.md §23.6, docs/reference/runtime.md §23.16). */
interface ServerTasks {
  /** stratum_parallel_start's refusal of a step in a state it cannot start from, or null. */
  readonly refuseStart?: (run: FlowRun, step: StepIR) => Response | null;
  /** The task list for the executor, or the error answer of stratum_parallel_start. */
  startTasks(run: FlowRun, step: StepIR): StartedTask[] | Response;
  /** The task ids as poll and advance find them (empty when they cannot be found). */
  taskIds(run: FlowRun, step: StepIR): ReadonlySet<string>;
  /** How the executor runs the tasks. */
  executorPlan(step: StepIR, tasks: readonly StartedTask[]): ExecutorPlan;
  /** stratum_parallel_poll once the step has entries (`seen` is the flow as read; edits go through `tx`). */
  poll(tx: Tx, seen: FlowRun, step: StepIR, entries: ReadonlyMap<string, PyValue>, args: StepArgs): Response;
  /** stratum_parallel_advance of a step that defers its advance (else `wrong_step_type`). */
  readonly advance?: (tx: Tx, seen: FlowRun, step: StepIR, args: ParallelAdvanceArgs) => Response;
  /** True when a poll's outcome ends the step with tasks still running, which are then cancelled (a won race). */
  readonly cancelsRestAt?: (outcome: Wire) => boolean;
}
