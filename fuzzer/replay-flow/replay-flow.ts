// Replaying a stored flow against an edited spec (docs/guides/testing-a-spec.md): the flow's
// recorded answers are sent to a fresh in-memory run of the recorded spec and of the edited one,
// and the first place where the two runs differ is the divergence. The check to run before a
// change to a spec with live flows ships.
import { type CheckedSpec, checkSpec } from "../../checker/index";
import type { FlowState, PathSource } from "../../interpreter/index";
import { dictGetStr, fromJsonValue, PyDict } from "../../stdlib/index";
import { virtualFiles } from "../engine";
import { Solver } from "../solver";
import { type FuzzTarget, fuzzTarget } from "../target";
import { Shapes } from "../values/shapes";
import { type Divergence, firstDivergence } from "./compare";
import { type DriveEnd, driveRecording } from "./drive";
import { type RecordedEntry, type RecordedFlow, recordingOf } from "./recording";

export interface FlowReplayReport {
  readonly flowId: string;
  readonly flowName: string;
  /** The stored status of the flow (running, awaiting_gate, complete, …). */
  readonly status: string;
  /** Recorded answers (step results, gate decisions, skips, policy approvals). */
  readonly entries: number;
  /** How many of them the edited spec took before the replay stopped. */
  readonly replayed: number;
  /** Recorded step results the store did not keep, sent as the step's latest stored output. */
  readonly reconstructed: number;
  /** The first divergence; null: none found. */
  readonly divergence: Divergence | null;
  /** Why the replay could not go through the whole recording without a divergence; null: it did. */
  readonly unjudged: string | null;
}

/** The target of an edited spec; null when it has errors (the caller reports them). */
export function replayTarget(specText: string): FuzzTarget | null {
  return fuzzTarget(checkSpec(specText));
}

/**
 * The stored flows `--all` replays against `spec`: root flows (not sub-flow children) whose flow
 * name is a flow of the spec. Our choice: flows do not record which file their spec came from
 * (`spec_checksum` is always ""), and an edited spec has a new text, so the flow name is the link.
 */
export function flowsOfSpec(spec: CheckedSpec, states: readonly FlowState[]): FlowState[] {
  return states.filter((s) => s.parent_flow_id === null && spec.flows.has(s.flow_name));
}

/**
 * The flows a stored flow's sub-flow steps ran, as their records name them (the child of each
 * ended sub-flow step): the store reads them, and their own children, for `replayFlow`.
 */
export function childFlowIds(state: FlowState): string[] {
  const ids: string[] = [];
  for (const records of [...state.rounds, state.records]) {
    for (const r of records) if (r.type === "step" && r.child_flow_id != null) ids.push(r.child_flow_id);
  }
  return ids;
}

/**
 * Replays one decoded stored flow against the edited spec's target. `children`: the stored flows
 * its sub-flow steps ran (and theirs), by flow id; a sub-flow step whose child is not there stops
 * the replay, unjudged.
 */
export async function replayFlow(
  edited: FuzzTarget,
  state: FlowState,
  children: ReadonlyMap<string, FlowState> = new Map(),
): Promise<FlowReplayReport> {
  const recording = recordingOf(state);
  const base = {
    flowId: recording.flowId,
    flowName: recording.flowName,
    status: recording.status,
    entries: recording.entries.length,
    reconstructed: recording.reconstructed,
  };
  if (!edited.spec.flows.has(recording.flowName)) {
    return {
      ...base,
      replayed: 0,
      unjudged: null,
      divergence: {
        kind: "flow_refused",
        step: null,
        message: `flow '${recording.flowName}' no longer exists in the edited spec`,
        recorded: "planned",
        now: "no such flow",
        range: { start: 0, end: 0 },
        violations: [],
        reconstructed: false,
        child: null,
      },
    };
  }
  const recorded = replayTarget(recording.specText);
  if (recorded === null) {
    return {
      ...base,
      replayed: 0,
      divergence: null,
      unjudged: "the spec the flow was recorded on no longer checks, so there is nothing to compare with",
    };
  }
  // One virtual file system for both runs (the edited spec's words): only the specs differ.
  const literals = edited.literals.strings;
  const complete = madeUp(recording, recorded, state, literals);
  const childRecordings = new Map<string, RecordedFlow>();
  for (const [id, child] of children) {
    childRecordings.set(id, madeUp(recordingOf(child), recorded, child, literals));
  }
  const baseline = await driveRecording(recorded.text, literals, complete, childRecordings);
  const now = await driveRecording(edited.text, literals, complete, childRecordings);
  const divergence = firstDivergence(complete, edited, baseline, now);
  let reconstructed = recording.reconstructed;
  for (const child of childRecordings.values()) reconstructed += child.reconstructed;
  return {
    ...base,
    reconstructed,
    replayed: now.consumed,
    divergence,
    unjudged: divergence === null ? unjudgedReason(recording, baseline.end) : null,
  };
}

/**
 * The recording with a result for every step the store kept no output of: one the recorded spec
 * accepts (its contract and ensures, given the flow's input and stored outputs), as the fuzzer's
 * solver finds it — what the recorded spec did accept at that point.
 */
function madeUp(
  recording: RecordedFlow,
  recorded: FuzzTarget,
  state: FlowState,
  literals: readonly string[],
): RecordedFlow {
  if (recording.entries.every((e) => e.kind !== "step" || e.result !== undefined)) return recording;
  const flow = recorded.spec.flows.get(recording.flowName);
  const solver = new Solver(
    recorded.spec,
    new Shapes(recorded.spec, recorded.literals),
    0,
    virtualFiles(literals),
  );
  const paths: PathSource = {
    input: (name) => dictGetStr(recording.inputs, name),
    stepOutput: (id) => state.step_outputs.get(id),
  };
  const entries = recording.entries.map((entry): RecordedEntry => {
    if (entry.kind !== "step" || entry.result !== undefined) return entry;
    const step = flow?.stepById.get(entry.step);
    const found =
      step === undefined ? null : (solver.passing(step, paths) ?? solver.conforming(step)[0]?.plain);
    return { ...entry, result: found === null || found === undefined ? new PyDict() : fromJsonValue(found) };
  });
  return { ...recording, entries };
}

function unjudgedReason(recording: RecordedFlow, end: DriveEnd): string | null {
  switch (end.kind) {
    case "recording_end":
      return null;
    case "unreplayable":
      return `the replay stops at step '${end.step}' (recorded answer ${end.entry + 1} of ${recording.entries.length}): ${end.why}`;
    case "mismatch":
      return `the recorded spec itself does not follow the recording from answer ${end.entry + 1} of ${recording.entries.length} on (${recording.reconstructed} result(s) were not in the store and were reconstructed)`;
    case "plan_refused":
      return `the recorded spec refuses the recorded input: ${end.message}`;
  }
}
