// The flow file format (docs/reference/runtime.md §14.1): FlowState ⇄ JSON text. Encoding is generic (FlowState's
// field order is the file's key order); decoding checks every structural field and rebuilds the
// FlowState shapes (plain objects in key order, Maps for user-keyed collections, user data as
// PyValue), refusing a damaged file with a reason rather than handing the engine a broken state.
import { JsonDepthError, JsonSyntaxError, parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";
import type { FlowState, PersistedStatus } from "../base/flow-state";
import { grouped, MAX_FLOW_FILE_DEPTH } from "../limits";
import { encodeWire, WireDepthError } from "../wire/encode";
import { measureWire } from "../wire/measure";
import type { WireObject } from "../wire/wire";
import {
  readAccumulators,
  readActiveIteration,
  readArchivedIterations,
  readAttempts,
  readBudgetState,
  readChildAudits,
  readIterationOutcome,
  readIterations,
  readRecords,
  readReviewLog,
  readRounds,
  readSnapshot,
  readStepOutputs,
} from "./decode-parts";
import {
  Fields,
  FormatError,
  mapOf,
  nullable,
  oneOf,
  readBoolean,
  readDict,
  readInt,
  readString,
} from "./json-reader";

/**
 * A flow state the codec will not write, because its reader could not read it back: nested deeper
 * than MAX_FLOW_FILE_DEPTH, or longer than the longest string the runtime can hold.
 */
export class FlowTooLargeError extends Error {
  constructor(
    readonly flowId: string,
    readonly problem: string,
  ) {
    super(`Flow '${flowId}' cannot be stored: ${problem}; nothing was written`);
    this.name = "FlowTooLargeError";
  }
}

/**
 * The file text: Python `json.dumps(…, indent=2)` layout, keys in FlowState order, no trailing
 * newline. Throws FlowTooLargeError rather than write a file `decodeFlowState` would refuse.
 */
export function encodeFlowState(state: FlowState): string {
  try {
    // FlowState is made of wire values only (plain objects, Maps, arrays, PyValue data); it is an
    // interface without an index signature, hence the cast.
    return encodeWire(state as unknown as WireObject, { indent: 2, maxDepth: MAX_FLOW_FILE_DEPTH });
  } catch (e) {
    if (e instanceof WireDepthError) throw tooDeep(state.flow_id);
    if (e instanceof RangeError) {
      throw new FlowTooLargeError(
        state.flow_id,
        `its file would be too long to hold in memory (${e.message})`,
      );
    }
    throw e;
  }
}

/**
 * An estimate of the length of the state's text without encoding it (measureWire, one line: the
 * file's indentation is not counted), for a store that keeps states (the memory store). Throws the
 * FlowTooLargeError encodeFlowState throws for a state nested too deep.
 */
export function measureFlowState(state: FlowState): number {
  try {
    return measureWire(state as unknown as WireObject, MAX_FLOW_FILE_DEPTH);
  } catch (e) {
    if (e instanceof WireDepthError) throw tooDeep(state.flow_id);
    throw e;
  }
}

/** The codec's refusal of a state nested deeper than a flow file may be. */
export function tooDeep(flowId: string): FlowTooLargeError {
  return new FlowTooLargeError(
    flowId,
    `its state is nested more than ${grouped(MAX_FLOW_FILE_DEPTH)} levels deep (a flow file nests at most ${grouped(MAX_FLOW_FILE_DEPTH)})`,
  );
}

export type DecodedFlow =
  | { readonly ok: true; readonly state: FlowState }
  | { readonly ok: false; readonly reason: string };

const PERSISTED_STATUSES: readonly PersistedStatus[] = [
  "running",
  "awaiting_gate",
  "exhausted",
  "complete",
  "killed",
  "budget_exhausted",
];

/**
 * Parses a flow file (kind-preserving JSON); missing keys take their empty defaults (`revision` 0,
 * `status` "running"), so files written by the reference restore; records without `type` are
 * StepRecords; unknown keys are ignored. `status` is re-derived by the engine, not trusted.
 * `spec_checksum` and `synthetic` are read for their type only and kept at `""` / `false` (docs/reference/runtime.md §14.1).
 */
export function decodeFlowState(text: string): DecodedFlow {
  try {
    const json = parseJson(text, { maxDepth: MAX_FLOW_FILE_DEPTH });
    return { ok: true, state: readFlowState(Fields.of(json, "")) };
  } catch (e) {
    if (e instanceof JsonDepthError) {
      return { ok: false, reason: `${e.message}; a flow file nests at most ${grouped(e.limit)} levels` };
    }
    if (e instanceof JsonSyntaxError) return { ok: false, reason: `not valid JSON: ${e.message}` };
    if (e instanceof FormatError) return { ok: false, reason: e.message };
    throw e;
  }
}

function readFlowState(f: Fields): FlowState {
  const emptyMap = () => new Map();
  const empty = () => [];
  const nullValue = () => null;
  const zero = () => 0;
  const optionalString = nullable(readString);
  f.get("spec_checksum", readString, () => "");
  f.get("synthetic", readBoolean, () => false);
  return {
    flow_id: f.get("flow_id", readString, () => ""),
    flow_name: f.get("flow_name", readString, () => ""),
    raw_spec: f.get("raw_spec", readString, () => ""),
    inputs: f.get("inputs", readDict, () => new PyDict()),
    step_outputs: f.get("step_outputs", readStepOutputs, emptyMap),
    records: f.get("records", readRecords, empty),
    attempts: f.get("attempts", readAttempts, emptyMap),
    current_idx: f.get("current_idx", readInt, zero),
    checkpoints: f.get("checkpoints", mapOf(readSnapshot), emptyMap),
    round: f.get("round", readInt, zero),
    rounds: f.get("rounds", readRounds, empty),
    round_start_step_id: f.get("round_start_step_id", optionalString, nullValue),
    terminal_status: f.get("terminal_status", nullable(oneOf(["killed", "budget_exhausted"])), nullValue),
    iterations: f.get("iterations", readIterations, emptyMap),
    archived_iterations: f.get("archived_iterations", readArchivedIterations, empty),
    active_iteration: f.get("active_iteration", nullable(readActiveIteration), nullValue),
    iteration_outcome: f.get("iteration_outcome", readIterationOutcome, emptyMap),
    iteration_best: f.get("iteration_best", readStepOutputs, emptyMap),
    iteration_accumulator: f.get("iteration_accumulator", readAccumulators, emptyMap),
    parent_flow_id: f.get("parent_flow_id", optionalString, nullValue),
    parent_step_id: f.get("parent_step_id", optionalString, nullValue),
    active_child_flow_id: f.get("active_child_flow_id", optionalString, nullValue),
    child_audits: f.get("child_audits", readChildAudits, emptyMap),
    spec_checksum: "",
    parallel_tasks: f.get("parallel_tasks", readStepOutputs, emptyMap),
    cwd: f.get("cwd", readString, () => ""),
    judge_history: f.get("judge_history", readStepOutputs, emptyMap),
    judge_outcome: f.get("judge_outcome", readStepOutputs, emptyMap),
    synthetic: false,
    budget_state: f.get("budget_state", nullable(readBudgetState), nullValue),
    review_log: f.get("review_log", readReviewLog, emptyMap),
    revision: f.get("revision", readRevision, zero),
    status: f.get("status", oneOf(PERSISTED_STATUSES), () => "running" as const),
  };
}

function readRevision(v: Parameters<typeof readInt>[0], path: string): number {
  const n = readInt(v, path);
  if (n < 0) throw new FormatError(path, "a non-negative integer");
  return n;
}
