// Readers for the structured parts of a flow file (docs/reference/runtime.md §1.2, docs/reference/runtime.md §9, docs/reference/runtime.md §10.1, docs/reference/runtime.md §11): trace
// records, iteration state, budgets and checkpoint snapshots. Absent keys take their empty
// defaults, as in the top-level object, so files of other writers (the reference) restore.
import { STEP_MODES } from "../../checker/base/step-kinds";
import { PyFloat, type PyValue } from "../../stdlib/values/value";
import type {
  Accumulator,
  ActiveIteration,
  BudgetState,
  GateRecord,
  IterationEntry,
  PolicyRecord,
  SkipRecord,
  Snapshot,
  StepRecord,
  TraceRecord,
} from "../base/flow-state";
import type { Wire } from "../wire/wire";
import {
  Fields,
  listOf,
  mapOf,
  nullable,
  oneOf,
  type Reader,
  readAny,
  readBoolean,
  readInt,
  readNumber,
  readString,
} from "./json-reader";

const nullValue = (): null => null;
const zero = (): number => 0;
const emptyString = (): string => "";
const optionalString = nullable(readString);

const readStepRecord = (f: Fields): StepRecord => ({
  step_id: f.get("step_id", readString, emptyString),
  function_name: f.get("function_name", readString, emptyString),
  attempts: f.get("attempts", readInt, zero),
  duration_ms: f.get("duration_ms", readNumber, zero),
  type: "step",
  round: f.get("round", readInt, zero),
  round_start_step_id: f.get("round_start_step_id", optionalString, nullValue),
  agent: f.get("agent", optionalString, nullValue),
  // Older records have no step_mode: they were function steps (the only kind with a record then).
  step_mode: f.get("step_mode", oneOf(STEP_MODES), () => "function" as const),
  child_flow_id: f.get("child_flow_id", optionalString, nullValue),
  cache_hit: f.get("cache_hit", readBoolean, () => false),
  cache_key: f.get("cache_key", optionalString, nullValue),
});

const readGateRecord = (f: Fields): GateRecord => {
  // Only records of a named person have the key; the others read back without it, as written.
  const name = f.get("resolved_by_name", optionalString, nullValue);
  return {
    step_id: f.get("step_id", readString, emptyString),
    outcome: f.get("outcome", oneOf(["approve", "revise", "kill"]), () => "approve" as const),
    rationale: f.get("rationale", readString, emptyString),
    resolved_by: f.get("resolved_by", oneOf(["human", "agent", "system"]), () => "human" as const),
    duration_ms: f.get("duration_ms", readNumber, zero),
    type: "gate",
    round: f.get("round", readInt, zero),
    round_start_step_id: f.get("round_start_step_id", optionalString, nullValue),
    ...(name === null ? {} : { resolved_by_name: name }),
  };
};

const readSkipRecord = (f: Fields): SkipRecord => ({
  step_id: f.get("step_id", readString, emptyString),
  skip_reason: f.get("skip_reason", readString, emptyString),
  type: "skip",
  round: f.get("round", readInt, zero),
  round_start_step_id: f.get("round_start_step_id", optionalString, nullValue),
});

const readPolicyRecord = (f: Fields): PolicyRecord => ({
  step_id: f.get("step_id", readString, emptyString),
  effective_policy: f.get("effective_policy", oneOf(["flag", "skip", "skip_if"]), () => "flag" as const),
  resolved_outcome: f.get("resolved_outcome", oneOf(["approve"]), () => "approve" as const),
  rationale: f.get("rationale", readString, emptyString),
  type: "policy",
  round: f.get("round", readInt, zero),
  round_start_step_id: f.get("round_start_step_id", optionalString, nullValue),
});

/** A trace record by its `type`; a record without `type` is a StepRecord (docs/reference/runtime.md §14.4). */

/** A float field written by the reference as a float; an integer is accepted (and becomes a float). */
const readFloat: Reader<PyFloat> = (v, path) => new PyFloat(readNumber(v, path));

export const readRecord: Reader<TraceRecord> = (v, path) => {
  const f = Fields.of(v, path);
  const type = f.get("type", oneOf(["step", "gate", "skip", "policy"]), () => "step" as const);
  switch (type) {
    case "step":
      return readStepRecord(f);
    case "gate":
      return readGateRecord(f);
    case "skip":
      return readSkipRecord(f);
    case "policy":
      return readPolicyRecord(f);
  }
};

export const readRecords = listOf(readRecord);
export const readRounds = listOf(readRecords);

/** An iteration history entry: a fixed-key object in file key order, values kept as user data. */
export const readIterationEntry: Reader<IterationEntry> = (v, path) => {
  Fields.of(v, path); // checks that it is an object
  // Object.fromEntries defines own properties, so a key "__proto__" stays data.
  return Object.fromEntries(mapOf(readAny)(v, path));
};

export const readIterations = mapOf(listOf(readIterationEntry));
export const readArchivedIterations = listOf(readIterations);

export const readActiveIteration: Reader<ActiveIteration> = (v, path) => {
  const f = Fields.of(v, path);
  return {
    step_id: f.get("step_id", readString, emptyString),
    round: f.get("round", readInt, zero),
    max_iterations: f.get("max_iterations", readInt, zero),
    exit_criterion: f.get("exit_criterion", optionalString, nullValue),
    score_expr: f.get("score_expr", optionalString, nullValue),
    accumulate: f.get("accumulate", optionalString, nullValue),
    accumulate_key: f.get("accumulate_key", optionalString, nullValue),
    count: f.get("count", readInt, zero),
    started_at: f.get("started_at", readFloat, () => new PyFloat(0)),
    status: f.get("status", oneOf(["active"]), () => "active" as const),
  };
};

export const readAccumulator: Reader<Accumulator> = (v, path) => {
  const f = Fields.of(v, path);
  return {
    items: f.get("items", listOf(readAny), () => []),
    seen: f.get("seen", listOf(readString), () => []),
    dry_streak: f.get("dry_streak", readInt, zero),
  };
};

export const readBudgetState: Reader<BudgetState> = (v, path) => {
  const f = Fields.of(v, path);
  const caps = f.get("caps", Fields.of, () => Fields.empty(`${path}.caps`));
  const consumed = f.get("consumed", Fields.of, () => Fields.empty(`${path}.consumed`));
  return {
    caps: {
      ms: caps.get("ms", nullable(readNumber), nullValue),
      usd: caps.get("usd", nullable(readNumber), nullValue),
      max_agent_dispatches: caps.get("max_agent_dispatches", nullable(readNumber), nullValue),
      max_tokens: caps.get("max_tokens", nullable(readNumber), nullValue),
    },
    consumed: {
      wall_s: consumed.get("wall_s", readAny, zero),
      dispatches: consumed.get("dispatches", readInt, zero),
      tokens: consumed.get("tokens", readInt, zero),
      dollars: consumed.get("dollars", readAny, zero),
    },
  };
};

/** Child audit snapshots stay user data (they are only ever returned, never interpreted). */
export const readChildAudits: Reader<Map<string, Wire[]>> = mapOf(listOf<Wire>(readAny));
/** The review log's entries are plain data only the page reads (flow/review-log.ts). */
export const readReviewLog: Reader<Map<string, Wire[]>> = mapOf(listOf<Wire>(readAny));

export const readStepOutputs: Reader<Map<string, PyValue>> = mapOf(readAny);
export const readAttempts: Reader<Map<string, number>> = mapOf(readInt);
export const readIterationOutcome: Reader<Map<string, string>> = mapOf(readString);
export const readAccumulators: Reader<Map<string, Accumulator>> = mapOf(readAccumulator);

export const readSnapshot: Reader<Snapshot> = (v, path) => {
  const f = Fields.of(v, path);
  return {
    step_outputs: f.get("step_outputs", readStepOutputs, () => new Map()),
    attempts: f.get("attempts", readAttempts, () => new Map()),
    records: f.get("records", readRecords, () => []),
    current_idx: f.get("current_idx", readInt, zero),
    round: f.get("round", readInt, zero),
    rounds: f.get("rounds", readRounds, () => []),
    round_start_step_id: f.get("round_start_step_id", optionalString, nullValue),
    terminal_status: f.get("terminal_status", nullable(oneOf(["killed", "budget_exhausted"])), nullValue),
    iterations: f.get("iterations", readIterations, () => new Map()),
    archived_iterations: f.get("archived_iterations", readArchivedIterations, () => []),
    active_iteration: f.get("active_iteration", nullable(readActiveIteration), nullValue),
    iteration_outcome: f.get("iteration_outcome", readIterationOutcome, () => new Map()),
    iteration_best: f.get("iteration_best", readStepOutputs, () => new Map()),
    iteration_accumulator: f.get("iteration_accumulator", readAccumulators, () => new Map()),
    active_child_flow_id: f.get("active_child_flow_id", optionalString, nullValue),
    child_audits: f.get("child_audits", readChildAudits, () => new Map()),
    judge_history: f.get("judge_history", readStepOutputs, () => new Map()),
    judge_outcome: f.get("judge_outcome", readStepOutputs, () => new Map()),
  };
};
