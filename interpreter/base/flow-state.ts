// The state of one flow execution (docs/reference/runtime.md §1.2). Field names and declaration order mirror the
// persisted file key for key (docs/reference/runtime.md §14.1), so encoding is generic and the key order is fixed here, in
// one place. Objects with fixed keys are plain objects built in that order; everything keyed by
// user text (step ids, labels) is a Map. User data (results, inputs, outputs) is PyValue restricted
// to the JSON kinds (null, bool, int, PyFloat, str, list, PyDict with string keys) and is never
// mutated after it is stored, so copies of the state may share it.
import type { StepMode } from "../../checker/base/step-kinds";
import type { PyDict, PyFloat, PyValue } from "../../stdlib/values/value";
import type { Wire } from "../wire/wire";

type TerminalStatus = "killed" | "budget_exhausted";

/** Derived at every write (docs/reference/runtime.md §14.1). */
export type PersistedStatus =
  | "running"
  | "awaiting_gate"
  | "exhausted"
  | "complete"
  | "killed"
  | "budget_exhausted";

export interface StepRecord {
  readonly step_id: string;
  readonly function_name: string;
  readonly attempts: number;
  readonly duration_ms: number;
  readonly type: "step";
  readonly round: number;
  readonly round_start_step_id: string | null;
  readonly agent: string | null;
  /** The kind's name, a gate's `function` (checker/base/step-kinds.ts: a value of `type:`). */
  readonly step_mode: StepMode;
  readonly child_flow_id: string | null;
  /** Answered from the result cache (docs/reference/runtime.md §25.4); false in records of older files. */
  readonly cache_hit?: boolean;
  /** The result cache key of a replayed step, else null. */
  readonly cache_key?: string | null;
}

export interface GateRecord {
  readonly step_id: string;
  readonly outcome: "approve" | "revise" | "kill";
  readonly rationale: string;
  readonly resolved_by: "human" | "agent" | "system";
  readonly duration_ms: number;
  readonly type: "gate";
  readonly round: number;
  readonly round_start_step_id: string | null;
  /**
   * The named person who resolved it (`stratumc ui --users`, `stratumc gate --by`), a stratumc key
   * after the reference's; absent otherwise, so other records keep the reference's shape.
   */
  readonly resolved_by_name?: string;
}

export interface SkipRecord {
  readonly step_id: string;
  readonly skip_reason: string;
  readonly type: "skip";
  readonly round: number;
  readonly round_start_step_id: string | null;
}

export interface PolicyRecord {
  readonly step_id: string;
  readonly effective_policy: "flag" | "skip" | "skip_if";
  readonly resolved_outcome: "approve";
  readonly rationale: string;
  readonly type: "policy";
  readonly round: number;
  readonly round_start_step_id: string | null;
}

export type TraceRecord = StepRecord | GateRecord | SkipRecord | PolicyRecord;

/**
 * One iteration history entry (docs/reference/runtime.md §9.2, docs/reference/runtime.md §9.4). Key order: iteration, round, result,
 * result_fingerprint, exit_criterion_met, outcome, timestamp, then the accumulate keys
 * (the order the reference writes them; see the accumulate scenarios).
 */
export interface IterationEntry {
  readonly [key: string]: PyValue;
}

export interface ActiveIteration {
  readonly step_id: string;
  readonly round: number;
  readonly max_iterations: number;
  readonly exit_criterion: string | null;
  readonly score_expr: string | null;
  readonly accumulate: string | null;
  readonly accumulate_key: string | null;
  count: number;
  /** Monotonic seconds (a float, as the reference writes it). */
  readonly started_at: PyFloat;
  readonly status: "active";
}

export interface Accumulator {
  /** Deduplicated elements (first occurrence wins). */
  items: PyValue[];
  /** Canonical JSON texts of the keys seen. */
  seen: string[];
  dry_streak: number;
}

/** The run-budget ledger of a flow (docs/reference/runtime.md §11.4); replaced whole at each charge. */
export interface BudgetState {
  readonly caps: {
    readonly ms: number | null;
    readonly usd: number | null;
    readonly max_agent_dispatches: number | null;
    readonly max_tokens: number | null;
  };
  readonly consumed: {
    readonly wall_s: PyValue;
    readonly dispatches: number;
    readonly tokens: number;
    readonly dollars: PyValue;
  };
}

/** What a checkpoint stores (docs/reference/runtime.md §10.1), in this key order. */
export interface Snapshot {
  readonly step_outputs: Map<string, PyValue>;
  readonly attempts: Map<string, number>;
  readonly records: TraceRecord[];
  readonly current_idx: number;
  readonly round: number;
  readonly rounds: TraceRecord[][];
  readonly round_start_step_id: string | null;
  readonly terminal_status: TerminalStatus | null;
  readonly iterations: Map<string, IterationEntry[]>;
  readonly archived_iterations: Map<string, IterationEntry[]>[];
  readonly active_iteration: ActiveIteration | null;
  readonly iteration_outcome: Map<string, string>;
  readonly iteration_best: Map<string, PyValue>;
  readonly iteration_accumulator: Map<string, Accumulator>;
  readonly active_child_flow_id: string | null;
  readonly child_audits: Map<string, Wire[]>;
  readonly judge_history: Map<string, PyValue>;
  readonly judge_outcome: Map<string, PyValue>;
}

/**
 * The persisted flow state, in file key order (docs/reference/runtime.md §14.1). Mutable only on a transaction's working
 * copy (flow/clone.ts), a shallow copy of the committed state: fields are reassigned freely, but
 * the maps and lists it shares with the committed state change only through flow/edits.ts, which
 * logs each change so that a call that does not commit is undone.
 */
export interface FlowState {
  flow_id: string;
  flow_name: string;
  raw_spec: string;
  inputs: PyDict;
  step_outputs: Map<string, PyValue>;
  records: TraceRecord[];
  attempts: Map<string, number>;
  current_idx: number;
  checkpoints: Map<string, Snapshot>;
  round: number;
  rounds: TraceRecord[][];
  round_start_step_id: string | null;
  terminal_status: TerminalStatus | null;
  iterations: Map<string, IterationEntry[]>;
  archived_iterations: Map<string, IterationEntry[]>[];
  active_iteration: ActiveIteration | null;
  iteration_outcome: Map<string, string>;
  iteration_best: Map<string, PyValue>;
  iteration_accumulator: Map<string, Accumulator>;
  parent_flow_id: string | null;
  parent_step_id: string | null;
  active_child_flow_id: string | null;
  child_audits: Map<string, Wire[]>;
  spec_checksum: "";
  parallel_tasks: Map<string, PyValue>;
  cwd: string;
  judge_history: Map<string, PyValue>;
  judge_outcome: Map<string, PyValue>;
  synthetic: false;
  budget_state: BudgetState | null;
  /**
   * What a person at a gate reviews and nothing else reads (flow/review-log.ts): per step, its
   * latest rejected attempts with their violations, results a revise replaced, gate resolution
   * times. Bounded; not part of checkpoints.
   */
  review_log: Map<string, Wire[]>;
  revision: number;
  status: PersistedStatus;
}
