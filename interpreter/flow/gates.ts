// `stratum_gate_resolve` (docs/reference/runtime.md §6.1, docs/reference/runtime.md §6.2): the checks, the GateRecord and the three
// outcomes. `resolveGate` is shared with `stratum_check_timeouts` (a timeout kills the gate) and
// the CLI `gate` command.
import { strRepr } from "../../stdlib/values/repr";
import type { GateResolveArgs } from "../api";
import type { GateRecord } from "../base/flow-state";
import { flowNotFound, toolError } from "../base/tool-errors";
import type { Response } from "../wire/wire";
import { budgetStopped } from "./budget-stop";
import { completionPayload, finish, killedPayload } from "./completion";
import { currentStep, indexOfStep, isFinished } from "./current";
import { appendItem } from "./edits";
import { dispatchWithPolicy } from "./policy";
import { gateRecord } from "./records";
import { logGateResolution, logRevisedOutputs } from "./review-log";
import { clearFrom } from "./routing";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

export type GateOutcome = GateRecord["outcome"];
export type GateResolver = GateRecord["resolved_by"];

const OUTCOMES: readonly string[] = ["approve", "kill", "revise"];
const RESOLVERS: readonly string[] = ["agent", "human", "system"];

export function gateResolve(tx: Tx, args: GateResolveArgs): Response {
  const run = tx.read(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const refusal = resolveRefusal(run, args);
  if (refusal !== null) return refusal;
  const expected = args.expected_revision;
  if (expected !== undefined && run.state.revision !== expected) {
    return toolError(
      "gate_changed",
      `The flow changed while the gate was being answered (revision ${expected}, now ${run.state.revision}): ask again`,
    );
  }
  const stopped = budgetStopped(tx, args.flow_id);
  if (stopped !== null) return stopped;
  const work = tx.edit(args.flow_id);
  if (work === null) return flowNotFound(args.flow_id);
  const byName = args.resolved_by === "human" ? args.resolved_by_name : undefined;
  return resolveGate(
    tx,
    work,
    args.outcome as GateOutcome,
    args.rationale,
    args.resolved_by as GateResolver,
    {
      ...(byName === undefined ? {} : { resolvedByName: byName }),
    },
  );
}

/** The tool error refusing a resolution (the checks of docs/reference/runtime.md §6.1, in order), or null. */
function resolveRefusal(run: FlowRun, args: GateResolveArgs): Response | null {
  const step = currentStep(run);
  if (isFinished(run) || step === null) return toolError("flow_already_complete", "Flow is already complete");
  if (step.kind !== "gate") return toolError("not_a_gate_step", `Step '${step.id}' is not a gate step`);
  if (!OUTCOMES.includes(args.outcome)) {
    return toolError(
      "invalid_outcome",
      `outcome must be one of ['approve', 'kill', 'revise'], got ${strRepr(args.outcome)}`,
    );
  }
  if (!RESOLVERS.includes(args.resolved_by)) {
    return toolError(
      "invalid_resolved_by",
      `resolved_by must be one of ['agent', 'human', 'system'], got ${strRepr(args.resolved_by)}`,
    );
  }
  if (args.step_id !== step.id)
    return toolError("wrong_step", `Expected gate step '${step.id}', got '${args.step_id}'`);
  return null;
}

export interface ResolveOptions {
  /** `reason` of the killed payload when the kill finishes the flow (a timeout: "timeout", docs/reference/runtime.md §6.3). */
  readonly killReason?: string;
  /** The named person who decided (GateRecord `resolved_by_name`). */
  readonly resolvedByName?: string;
}

/**
 * Resolves the current gate of `run` (a working copy whose current step is a gate; the caller has
 * checked it): appends the GateRecord and applies the outcome.
 */
export function resolveGate(
  tx: Tx,
  run: FlowRun,
  outcome: GateOutcome,
  rationale: string,
  resolvedBy: GateResolver,
  options: ResolveOptions = {},
): Response {
  const gate = currentStep(run);
  if (gate === null || gate.kind !== "gate") throw new Error("resolveGate: the current step is not a gate");
  const dispatchedAt = run.timing.gateDispatchedAt.get(gate.id);
  // Wall clock since the gate's last dispatch in this process; 0 when unknown (after a restart).
  const durationMs =
    dispatchedAt === undefined ? 0 : Math.max(0, Math.trunc(tx.clock.wallMs() - dispatchedAt));
  appendItem(
    run,
    "records",
    gateRecord(run, gate.id, outcome, rationale, resolvedBy, durationMs, options.resolvedByName ?? null),
  );
  logGateResolution(tx, run, gate.id);

  switch (outcome) {
    case "approve":
      if (gate.onApprove === null) {
        finish(run);
        return completionPayload(run, tx.clock, "complete");
      }
      // Gate routing only moves the position: the target keeps its output and attempts (docs/reference/runtime.md §5).
      tx.note({
        type: "routed",
        flowId: run.state.flow_id,
        from: gate.id,
        to: gate.onApprove,
        route: "on_approve",
      });
      run.state.current_idx = indexOfStep(run, gate.onApprove);
      return dispatchWithPolicy(tx, run);
    case "revise":
      return revise(tx, run, gate.id, gate.onRevise ?? gate.id);
    case "kill":
      run.state.terminal_status = "killed";
      if (gate.onKill === null) {
        finish(run);
        return killedPayload(run, tx.clock, options.killReason);
      }
      tx.note({
        type: "routed",
        flowId: run.state.flow_id,
        from: gate.id,
        to: gate.onKill,
        route: "on_kill",
      });
      run.state.current_idx = indexOfStep(run, gate.onKill);
      return dispatchWithPolicy(tx, run);
  }
}

/**
 * A revise: refused once `max_rounds` revises were performed (the refusal commits: its GateRecord
 * stays and the gate stays pending); otherwise the round is archived and the flow restarts from
 * the `on_revise` target with a cleared tail.
 */
function revise(tx: Tx, run: FlowRun, gateId: string, target: string): Response {
  const { state } = run;
  const maxRounds = run.flow.maxRounds;
  if (maxRounds !== null && state.round >= maxRounds) {
    return toolError("max_rounds_exceeded", `Maximum rounds (${maxRounds}) exceeded`, { round: state.round });
  }
  tx.note({ type: "routed", flowId: state.flow_id, from: gateId, to: target, route: "on_revise" });
  logRevisedOutputs(tx, run, indexOfStep(run, target), indexOfStep(run, gateId));
  appendItem(run, "rounds", state.records);
  appendItem(run, "archived_iterations", state.iterations);
  state.iterations = new Map();
  state.active_iteration = null;
  state.iteration_best = new Map();
  clearFrom(run, target);
  state.records = [];
  state.current_idx = indexOfStep(run, target);
  state.round += 1;
  state.round_start_step_id = target;
  return dispatchWithPolicy(tx, run);
}
