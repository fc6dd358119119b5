// `stratum_commit` and `stratum_revert` (docs/reference/runtime.md §10): named snapshots of a flow's progress.
// A snapshot holds the fields of docs/reference/runtime.md §10.1 (not the inputs, not the checkpoints themselves, not the
// dispatch times); reverting replaces those fields and dispatches the current step again, without
// the policy loop (as the reference).
import { isSpaceCp } from "../../stdlib/builtins/unicode";
import { withFields } from "../../stdlib/values/own-property";
import type { LabelArgs } from "../api";
import type { Snapshot } from "../base/flow-state";
import { flowNotFound, toolError } from "../base/tool-errors";
import type { Response, WireObject } from "../wire/wire";
import { applySnapshot, takeSnapshot } from "./clone";
import { totalDurationMs } from "./completion";
import { currentStep, isFinished } from "./current";
import type { HumanDecision, ReadFlow } from "./decision-tree";
import { dispatch } from "./dispatch";
import { putEntry } from "./edits";
import { humanDecisionsUndone } from "./human-decisions";
import { traceWire } from "./records";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

export function commitCheckpoint(tx: Tx, args: LabelArgs): Response {
  const run = tx.read(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const label = pythonStrip(args.label);
  if (label === "") return toolError("invalid_label", "label must be a non-empty string");
  const work = tx.edit(args.flow_id);
  if (work === null) return flowNotFound(args.flow_id);
  // Map.set keeps an existing label at its original position, as a Python dict does.
  putEntry(work, "checkpoints", label, takeSnapshot(work.state));
  return {
    status: "committed",
    flow_id: work.state.flow_id,
    label,
    step_number: work.state.current_idx + 1,
    current_step_id: currentStep(work)?.id ?? null,
    checkpoints: [...work.state.checkpoints.keys()],
  };
}

export function revertCheckpoint(tx: Tx, args: LabelArgs): Response {
  const run = tx.read(args.flow_id);
  if (run === null) return flowNotFound(args.flow_id);
  const label = pythonStrip(args.label);
  const snapshot = run.state.checkpoints.get(label);
  if (snapshot === undefined) {
    return toolError("checkpoint_not_found", `No checkpoint '${label}' on flow '${run.state.flow_id}'`, {
      available: [...run.state.checkpoints.keys()],
    });
  }
  if (args.keep_human_gates === true) {
    const refused = humanGateRevertRefusal(tx, run, label, snapshot);
    if (refused !== null) return refused;
  }
  const work = tx.edit(args.flow_id);
  if (work === null) return flowNotFound(args.flow_id);
  applySnapshot(work.state, snapshot);
  const payload = isFinished(work) ? null : dispatch(tx, work);
  // A flow that is finished (restored so, or finished while skipping) answers a completion whose
  // output is the stored output of the last step, possibly null (as the reference).
  if (payload === null) return revertedToFinished(tx, work);
  return withFields(payload, { reverted_to: label });
}

/**
 * The refusal of a revert to `snapshot` that would undo gate decisions a person made in the flow or
 * in any of its sub-flows, with those decisions (`gates`) and the checkpoints a revert may go to
 * (`allowed`); null when it undoes none.
 */
function humanGateRevertRefusal(tx: Tx, run: FlowRun, label: string, snapshot: Snapshot): Response | null {
  const flow = { flow_id: run.state.flow_id, flow_name: run.state.flow_name };
  const read: ReadFlow = (flowId) => {
    const child = tx.read(flowId);
    if (child === null) return null;
    return {
      flow_name: child.state.flow_name,
      parent_step_id: child.state.parent_step_id,
      tree: child.state,
    };
  };
  const undone = humanDecisionsUndone(flow, run.state, snapshot, read);
  if (undone.length === 0) return null;
  const allowed = [...run.state.checkpoints]
    .filter(([, s]) => humanDecisionsUndone(flow, run.state, s, read).length === 0)
    .map(([name]) => name);
  const decisions = undone.map(decisionText).join(", ");
  const elsewhere =
    allowed.length === 0
      ? "no checkpoint keeps them yet: save one with stratum_commit when you need one"
      : `checkpoints that keep them: ${allowed.map((a) => `'${a}'`).join(", ")}`;
  return toolError(
    "human_gate_revert_refused",
    `Reverting to checkpoint '${label}' would undo what a person decided at ${decisions}, and on this server only a person makes gate decisions (STRATUM_GATES=human). Go on from the current step, or revert to a checkpoint saved after the decision (${elsewhere}); if the decision itself should change, ask the person.`,
    { gates: undone.map(decisionWire), allowed },
  );
}

/** `gate 'review' (approve, by ana) in sub-flow 'check' of step 'sub' > 'inner'`. */
function decisionText(d: HumanDecision): string {
  const who = d.resolved_by_name === null ? "" : `, by ${d.resolved_by_name}`;
  const where =
    d.via.length === 0
      ? ""
      : ` in sub-flow '${d.flow_name}' of step ${d.via.map((s) => `'${s}'`).join(" > ")}`;
  return `gate '${d.step_id}' (${d.outcome}${who})${where}`;
}

/** A decision in `gates`: the flow's own as `{step_id, outcome, round}`, a sub-flow's with where it was made. */
function decisionWire(d: HumanDecision): WireObject {
  return {
    step_id: d.step_id,
    outcome: d.outcome,
    round: d.round,
    ...(d.resolved_by_name === null ? {} : { resolved_by_name: d.resolved_by_name }),
    ...(d.via.length === 0 ? {} : { flow_id: d.flow_id, flow_name: d.flow_name, via: d.via }),
  };
}

function revertedToFinished(tx: Tx, run: FlowRun): Response {
  const lastStep = run.flow.steps[run.flow.steps.length - 1];
  return {
    status: "complete",
    flow_id: run.state.flow_id,
    output: lastStep === undefined ? null : (run.state.step_outputs.get(lastStep.id) ?? null),
    trace: traceWire(run.state.records),
    total_duration_ms: totalDurationMs(run, tx.clock),
  };
}

/** Python's `str.strip()`: Unicode whitespace removed at both ends (JS `trim` differs slightly). */
function pythonStrip(text: string): string {
  const cps = [...text];
  let start = 0;
  let end = cps.length;
  while (start < end && isSpaceCp((cps[start] as string).codePointAt(0) ?? 0)) start++;
  while (end > start && isSpaceCp((cps[end - 1] as string).codePointAt(0) ?? 0)) end--;
  return cps.slice(start, end).join("");
}
