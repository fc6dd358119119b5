// `stratum_parallel_poll` and `stratum_parallel_advance` (the server path): the flow and step
// looked up, the step's entries in the flow's `parallel_tasks` found; what the entries mean —
// a parallel step's aggregate (kinds/parallel_dispatch/poll.ts), a member step's judgement
// (kinds/shared/member-poll.ts) — is the step kind's.
import type { StepIR } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";
import type { ParallelAdvanceArgs, StepArgs } from "../api";
import type { Response } from "../wire/wire";
import { FLOW_KINDS } from "./kinds/index";
import { parallelToolError } from "./parallel-errors";
import { taskIdsOf } from "./parallel-start";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

/** The step's entries, in `parallel_tasks` order. */
export function stepEntries(run: FlowRun, step: StepIR): Map<string, PyValue> {
  const ids = taskIdsOf(run, step);
  const out = new Map<string, PyValue>();
  for (const [id, value] of run.state.parallel_tasks) if (ids.has(id)) out.set(id, value);
  return out;
}

export function parallelPoll(tx: Tx, args: StepArgs): Response {
  const seen = tx.read(args.flow_id);
  if (seen === null) return parallelToolError("flow_not_found", `No active flow with id '${args.flow_id}'`);
  const step = seen.flow.stepById.get(args.step_id);
  if (step === undefined)
    return parallelToolError("unknown_step", `Step '${args.step_id}' not found in flow`);
  const entries = stepEntries(seen, step);
  const server = FLOW_KINDS[step.kind].server;
  if (entries.size === 0 || server === undefined) {
    const prose = `step '${args.step_id}' not dispatched yet; call stratum_parallel_start first`;
    return parallelToolError("not_dispatched", prose, prose);
  }
  return server.poll(tx, seen, step, entries, args);
}

export function parallelAdvance(tx: Tx, args: ParallelAdvanceArgs): Response {
  const seen = tx.read(args.flow_id);
  if (seen === null) return parallelToolError("flow_not_found", `No active flow with id '${args.flow_id}'`);
  const step = seen.flow.stepById.get(args.step_id);
  if (step === undefined)
    return parallelToolError("unknown_step", `Step '${args.step_id}' not found in flow`);
  const advance = FLOW_KINDS[step.kind].server?.advance;
  if (advance === undefined) {
    return parallelToolError("wrong_step_type", `Step '${args.step_id}' is not a parallel_dispatch step`);
  }
  return advance(tx, seen, step, args);
}
