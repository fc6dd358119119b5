// fast-check arbitraries of persisted flow states (interpreter/base/flow-state.ts): every field of the
// right shape with random content, including user-keyed collections with awkward keys (`__proto__`,
// digits, non-ASCII) and user data of every JSON kind (ints beyond 2^53, floats, nested dicts).
// Shapes only: the states need not be reachable by the engine.
import fc from "fast-check";
import type {
  Accumulator,
  ActiveIteration,
  BudgetState,
  FlowState,
  GateRecord,
  IterationEntry,
  PersistedStatus,
  PolicyRecord,
  SkipRecord,
  Snapshot,
  StepRecord,
  TraceRecord,
} from "../../../interpreter/base/flow-state";
import type { Wire } from "../../../interpreter/wire/wire";
import { makeDict } from "../../../stdlib/values/dict";
import { type PyDict, PyFloat, type PyValue } from "../../../stdlib/values/value";
import { arbitraryFloat, arbitraryInt, arbitraryStr } from "../../support/arbitrary-values";

/** Step ids and labels: user text, so also keys a plain object would mishandle. */
const arbitraryKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("draft", "review", "s1", "__proto__", "constructor", "1", "10", "é", "a b", ""),
  arbitraryStr,
);

const arbitraryFlowId: fc.Arbitrary<string> = fc.uuid({ version: 4 });

function mapOf<T>(value: fc.Arbitrary<T>, maxLength = 3): fc.Arbitrary<Map<string, T>> {
  return fc
    .uniqueArray(fc.tuple(arbitraryKey, value), { maxLength, selector: ([k]) => k })
    .map((entries) => new Map(entries));
}

const { json: arbitraryJson } = fc.letrec<{ json: PyValue; dict: PyDict }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    arbitraryInt,
    arbitraryFloat,
    arbitraryStr,
    fc.array(tie("json"), { maxLength: 3 }),
    tie("dict"),
  ),
  dict: fc
    .uniqueArray(fc.tuple(arbitraryKey, tie("json")), { maxLength: 3, selector: ([k]) => k })
    .map((entries) => makeDict(entries)),
}));

/** User data (results, inputs, outputs): any JSON value, floats and big ints included. */
export const arbitraryUserData: fc.Arbitrary<PyValue> = arbitraryJson;
const arbitraryUserDict: fc.Arbitrary<PyDict> = fc
  .uniqueArray(fc.tuple(arbitraryKey, arbitraryJson), { maxLength: 3, selector: ([k]) => k })
  .map((entries) => makeDict(entries));

const count = fc.nat({ max: 50 });
const ms = fc.nat({ max: 10_000_000 });
const optionalKey = fc.option(arbitraryKey, { nil: null });

const arbitraryStepRecord: fc.Arbitrary<StepRecord> = fc
  .record({
    step_id: arbitraryKey,
    function_name: arbitraryStr,
    attempts: count,
    duration_ms: ms,
    round: count,
    round_start_step_id: optionalKey,
    agent: fc.option(arbitraryStr, { nil: null }),
    step_mode: fc.constantFrom("function" as const, "inline" as const, "flow" as const),
    child_flow_id: fc.option(arbitraryFlowId, { nil: null }),
    cache_key: fc.option(fc.constant("ab".repeat(32)), { nil: null }),
  })
  .map((r) => ({
    step_id: r.step_id,
    function_name: r.function_name,
    attempts: r.attempts,
    duration_ms: r.duration_ms,
    type: "step" as const,
    round: r.round,
    round_start_step_id: r.round_start_step_id,
    agent: r.agent,
    step_mode: r.step_mode,
    child_flow_id: r.child_flow_id,
    cache_hit: r.cache_key !== null,
    cache_key: r.cache_key,
  }));

const arbitraryGateRecord: fc.Arbitrary<GateRecord> = fc
  .record({
    step_id: arbitraryKey,
    outcome: fc.constantFrom("approve" as const, "revise" as const, "kill" as const),
    rationale: arbitraryStr,
    resolved_by: fc.constantFrom("human" as const, "agent" as const, "system" as const),
    duration_ms: ms,
    round: count,
    round_start_step_id: optionalKey,
    // A named reviewer's record (stratumc ui --users) has the key; the others have none at all.
    resolved_by_name: fc.option(arbitraryKey, { nil: null }),
  })
  .map((r) => ({
    step_id: r.step_id,
    outcome: r.outcome,
    rationale: r.rationale,
    resolved_by: r.resolved_by,
    duration_ms: r.duration_ms,
    type: "gate" as const,
    round: r.round,
    round_start_step_id: r.round_start_step_id,
    ...(r.resolved_by_name === null ? {} : { resolved_by_name: r.resolved_by_name }),
  }));

const arbitrarySkipRecord: fc.Arbitrary<SkipRecord> = fc
  .record({
    step_id: arbitraryKey,
    skip_reason: arbitraryStr,
    round: count,
    round_start_step_id: optionalKey,
  })
  .map((r) => ({
    step_id: r.step_id,
    skip_reason: r.skip_reason,
    type: "skip" as const,
    round: r.round,
    round_start_step_id: r.round_start_step_id,
  }));

const arbitraryPolicyRecord: fc.Arbitrary<PolicyRecord> = fc
  .record({
    step_id: arbitraryKey,
    effective_policy: fc.constantFrom("flag" as const, "skip" as const, "skip_if" as const),
    rationale: arbitraryStr,
    round: count,
    round_start_step_id: optionalKey,
  })
  .map((r) => ({
    step_id: r.step_id,
    effective_policy: r.effective_policy,
    resolved_outcome: "approve" as const,
    rationale: r.rationale,
    type: "policy" as const,
    round: r.round,
    round_start_step_id: r.round_start_step_id,
  }));

const arbitraryRecord: fc.Arbitrary<TraceRecord> = fc.oneof(
  arbitraryStepRecord,
  arbitraryGateRecord,
  arbitrarySkipRecord,
  arbitraryPolicyRecord,
);
const records = fc.array(arbitraryRecord, { maxLength: 3 });
const rounds = fc.array(records, { maxLength: 2 });

/** Fixed (engine-chosen) key names: no integer-like keys, which a plain object would reorder. */
const ENTRY_KEYS = [
  "iteration",
  "round",
  "result",
  "result_fingerprint",
  "outcome",
  "timestamp",
  "new_count",
];
const arbitraryIterationEntry: fc.Arbitrary<IterationEntry> = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...ENTRY_KEYS), arbitraryJson), {
    maxLength: 4,
    selector: ([k]) => k,
  })
  .map((entries) => Object.fromEntries(entries));
const iterations = mapOf(fc.array(arbitraryIterationEntry, { maxLength: 2 }), 2);

const arbitraryActiveIteration: fc.Arbitrary<ActiveIteration> = fc
  .record({
    step_id: arbitraryKey,
    round: count,
    max_iterations: count,
    exit_criterion: fc.option(arbitraryStr, { nil: null }),
    accumulate: fc.option(arbitraryStr, { nil: null }),
    accumulate_key: fc.option(arbitraryStr, { nil: null }),
    count,
    // Seconds since the epoch, possibly fractional (decimal fractions that print the same in JS and Python).
    started_at: fc.oneof(
      fc.nat(),
      fc.nat({ max: 2_000_000_000 }).map((s) => s + 0.25),
    ),
  })
  .map((a) => ({
    step_id: a.step_id,
    round: a.round,
    max_iterations: a.max_iterations,
    exit_criterion: a.exit_criterion,
    score_expr: null,
    accumulate: a.accumulate,
    accumulate_key: a.accumulate_key,
    count: a.count,
    started_at: new PyFloat(a.started_at),
    status: "active" as const,
  }));

const arbitraryAccumulator: fc.Arbitrary<Accumulator> = fc.record({
  items: fc.array(arbitraryJson, { maxLength: 3 }),
  seen: fc.array(arbitraryStr, { maxLength: 3 }),
  dry_streak: count,
});

const arbitraryBudget: fc.Arbitrary<BudgetState> = fc
  .record({ ms, usd: fc.option(fc.nat(), { nil: null }), dispatches: count, wall_s: arbitraryFloat })
  .map((b) => ({
    caps: { ms: b.ms, usd: b.usd, max_agent_dispatches: null, max_tokens: null },
    consumed: { wall_s: b.wall_s, dispatches: b.dispatches, tokens: 0, dollars: b.wall_s },
  }));

/** Child audit snapshots are user data (dicts), never interpreted. */
const childAudits: fc.Arbitrary<Map<string, Wire[]>> = mapOf(
  fc.array(arbitraryUserDict, { maxLength: 2 }),
  2,
);

const userMap = mapOf(arbitraryJson);
const terminalStatus = fc.constantFrom(null, "killed" as const);

/** fc.record builds its objects with the keys in declaration order: the file's key order. */
const arbitrarySnapshot: fc.Arbitrary<Snapshot> = fc.record({
  step_outputs: userMap,
  attempts: mapOf(count),
  records,
  current_idx: count,
  round: count,
  rounds,
  round_start_step_id: optionalKey,
  terminal_status: terminalStatus,
  iterations,
  archived_iterations: fc.array(iterations, { maxLength: 2 }),
  active_iteration: fc.option(arbitraryActiveIteration, { nil: null }),
  iteration_outcome: mapOf(arbitraryStr),
  iteration_best: fc.constant(new Map<string, PyValue>()),
  iteration_accumulator: mapOf(arbitraryAccumulator, 2),
  active_child_flow_id: fc.option(arbitraryFlowId, { nil: null }),
  child_audits: childAudits,
  judge_history: fc.constant(new Map<string, PyValue>()),
  judge_outcome: fc.constant(new Map<string, PyValue>()),
});

const PERSISTED: readonly PersistedStatus[] = ["running", "awaiting_gate", "exhausted", "complete", "killed"];

export const arbitraryFlowState: fc.Arbitrary<FlowState> = fc.record({
  flow_id: arbitraryFlowId,
  flow_name: arbitraryKey,
  raw_spec: fc.oneof(arbitraryStr, fc.constant('version: "0.2"\nflows:\n  main:\n    steps: []\n')),
  inputs: arbitraryUserDict,
  step_outputs: userMap,
  records,
  attempts: mapOf(count),
  current_idx: count,
  checkpoints: mapOf(arbitrarySnapshot, 2),
  round: count,
  rounds,
  round_start_step_id: optionalKey,
  terminal_status: terminalStatus,
  iterations,
  archived_iterations: fc.array(iterations, { maxLength: 2 }),
  active_iteration: fc.option(arbitraryActiveIteration, { nil: null }),
  iteration_outcome: mapOf(arbitraryStr),
  iteration_best: fc.constant(new Map<string, PyValue>()),
  iteration_accumulator: mapOf(arbitraryAccumulator, 2),
  parent_flow_id: fc.option(arbitraryFlowId, { nil: null }),
  parent_step_id: optionalKey,
  active_child_flow_id: fc.option(arbitraryFlowId, { nil: null }),
  child_audits: childAudits,
  spec_checksum: fc.constant("" as const),
  parallel_tasks: fc.constant(new Map<string, PyValue>()),
  cwd: fc.constantFrom("/work/project", "/tmp/é x"),
  judge_history: fc.constant(new Map<string, PyValue>()),
  judge_outcome: fc.constant(new Map<string, PyValue>()),
  synthetic: fc.constant(false as const),
  budget_state: fc.option(arbitraryBudget, { nil: null }),
  // The same shape as the child audits: lists of plain data per step.
  review_log: childAudits,
  revision: fc.nat({ max: 1_000_000 }),
  status: fc.constantFrom(...PERSISTED),
});
