// What a stored flow says was answered, in order: the answers a replay sends again. A flow file
// keeps its trace records (every round: step attempts that ended, gate decisions, skips, policy
// approvals), the last accepted output of each step, and the iteration history of each round; it
// does not keep the results of rejected attempts, nor a step's output from a round that a later
// revise or `next` loop cleared. Those results are reconstructed from the step's latest stored
// output (or a checkpoint's), else left for the replay to make up (replay-flow.ts), and counted, so
// a report can say how much of the replay is exact.
import type { FlowState, TraceRecord } from "../../interpreter/index";
import type { PyDict, PyValue } from "../../stdlib/index";

/** One answer of the recording. */
export type RecordedEntry =
  | {
      readonly kind: "step";
      readonly step: string;
      /** The attempt that ended the step (earlier attempts were rejected). */
      readonly attempts: number;
      /** Undefined when the store kept no output of the step at all. */
      readonly result: PyValue | undefined;
      /** False when the store did not keep this result and `result` is reconstructed. */
      readonly exact: boolean;
      /** The results of the iteration reports of this attempt's loop, in order (none: no loop). */
      readonly reports: readonly PyValue[];
      /** A sub-flow step's child flow, as its record names it (null: not a sub-flow step). */
      readonly child: string | null;
    }
  | {
      readonly kind: "gate";
      readonly step: string;
      readonly outcome: string;
      readonly rationale: string;
      readonly resolvedBy: string;
    }
  /** A skipped step: by `stratum_skip_step`, or by its `skip_if` (the replay tells them apart). */
  | { readonly kind: "skip"; readonly step: string; readonly reason: string }
  /** A gate approved by its policy or `skip_if`: the interpreter's own doing, nothing to send. */
  | { readonly kind: "policy"; readonly step: string };

export interface RecordedFlow {
  readonly flowId: string;
  readonly flowName: string;
  /** The spec text the flow was planned with. */
  readonly specText: string;
  readonly inputs: PyDict;
  /** The stored status (docs/reference/runtime.md §14.1). */
  readonly status: string;
  /** Set for a sub-flow's child. */
  readonly parentFlowId: string | null;
  readonly entries: readonly RecordedEntry[];
  /** Step results the store did not keep (reconstructed). */
  readonly reconstructed: number;
}

/** The recording of a decoded stored flow. */
export function recordingOf(state: FlowState): RecordedFlow {
  const rounds: (readonly TraceRecord[])[] = [...state.rounds, state.records];
  const lastStepRecord = lastIndexOfSteps(rounds);
  const entries: RecordedEntry[] = [];
  let reconstructed = 0;
  let position = 0;
  for (const [round, records] of rounds.entries()) {
    const reportsUsed = new Set<string>();
    for (const record of records) {
      const at = position++;
      switch (record.type) {
        case "step": {
          const stored = state.step_outputs.get(record.step_id);
          const exact = stored !== undefined && lastStepRecord.get(record.step_id) === at;
          if (!exact) reconstructed++;
          const reports = reportsUsed.has(record.step_id)
            ? []
            : iterationReports(state, round, record.step_id);
          reportsUsed.add(record.step_id);
          entries.push({
            kind: "step",
            step: record.step_id,
            attempts: Math.max(1, record.attempts),
            result: stored ?? checkpointOutput(state, record.step_id),
            exact,
            reports,
            child: record.child_flow_id ?? null,
          });
          break;
        }
        case "gate":
          entries.push({
            kind: "gate",
            step: record.step_id,
            outcome: record.outcome,
            rationale: record.rationale,
            resolvedBy: record.resolved_by,
          });
          break;
        case "skip":
          entries.push({ kind: "skip", step: record.step_id, reason: record.skip_reason });
          break;
        case "policy":
          entries.push({ kind: "policy", step: record.step_id });
          break;
      }
    }
  }
  return {
    flowId: state.flow_id,
    flowName: state.flow_name,
    specText: state.raw_spec,
    inputs: state.inputs,
    status: state.status,
    parentFlowId: state.parent_flow_id,
    entries,
    reconstructed,
  };
}

/**
 * For each step, the position (over every round) of the last record that could have stored its
 * output: its stored output belongs to that record only when it is a StepRecord.
 */
function lastIndexOfSteps(rounds: readonly (readonly TraceRecord[])[]): Map<string, number> {
  const last = new Map<string, number>();
  let position = 0;
  for (const records of rounds) {
    for (const record of records) {
      if (record.type === "step") last.set(record.step_id, position);
      else last.delete(record.step_id); // a later skip or auto-approval overwrote the output
      position++;
    }
  }
  return last;
}

/** The results reported to a step's loop in one round (`iterations` of that round). */
function iterationReports(state: FlowState, round: number, stepId: string): PyValue[] {
  const history =
    round < state.archived_iterations.length ? state.archived_iterations[round] : state.iterations;
  const entries = history?.get(stepId) ?? [];
  const results: PyValue[] = [];
  for (const entry of entries) {
    const result = entry.result;
    if (result !== undefined) results.push(result);
  }
  return results;
}

/** A step's output as some checkpoint holds it (the latest label first), else undefined. */
function checkpointOutput(state: FlowState, stepId: string): PyValue | undefined {
  const snapshots = [...state.checkpoints.values()].reverse();
  for (const snapshot of snapshots) {
    const value = snapshot.step_outputs.get(stepId);
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}
