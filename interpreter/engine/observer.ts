// What the engine tells an observer (EngineOptions.observer) about a committed tool call: plain
// events, derived from the flows' committed states (observe.ts), never from a call that failed or
// did not commit. The tracing exporter (host/tracing/) turns them into spans (docs/guides/tracing.md);
// the core only produces them and does no I/O for them. The fuzzer reads them too: every
// decision a consumer needs (why a result was rejected, what raised, where a flow went) is a typed
// field here, never a message text to parse (docs/reference/runtime.md "Events").
import type { StepMode as KindStepMode } from "../../checker/base/step-kinds";
import type { PyValue } from "../../stdlib/values/value";
import type { RouteField } from "../flow/tx";
import type { MemberViolation, RaisedError, Violation } from "../flow/violations";

/** What every event carries. */
export interface FlowEventBase {
  /** Wall-clock ms of the commit (one value for every event of a call). */
  readonly time_ms: number;
  readonly flow_id: string;
  readonly flow_name: string;
  /**
   * The top-most ancestor of the flow this process knows (through the flows of the call and the
   * registry's memory, no I/O); the flow itself for a root flow (docs/guides/tracing.md, "Identity").
   */
  readonly root_flow_id: string;
}

/** A step's `step_mode` (a gate's is `function`): a value of `type:`, or `judge` (checker/base/step-kinds.ts). */
export type StepMode = KindStepMode;

/** Where a step attempt sits in its flow: unique per flow (docs/guides/tracing.md, "Identity"). */
export interface StepPlace {
  readonly step_id: string;
  readonly round: number;
  /** How many trace records (every round) the flow had when the step became current. */
  readonly seq: number;
}

/** A flow was created: a root flow by stratum_plan, or a sub-flow's child (parent set). */
interface FlowStarted extends FlowEventBase {
  readonly type: "flow_started";
  readonly parent_flow_id: string | null;
  readonly parent_step_id: string | null;
}

/** A function, inline or sub-flow step became current with a new attempt. */
interface StepDispatched extends FlowEventBase, StepPlace {
  readonly type: "step_dispatched";
  readonly step_mode: StepMode;
  readonly attempt: number;
  /** The child of a sub-flow step (null otherwise). */
  readonly child_flow_id: string | null;
}

/** A gate became current and waits for stratum_gate_resolve. */
interface GateAwaited extends FlowEventBase, StepPlace {
  readonly type: "gate_awaited";
}

/**
 * `accepted`: the result passed; `rejected`: violations, another attempt follows; `exhausted`:
 * violations on the last attempt (routed through on_fail, or retries_exhausted); `skipped`: the
 * attempt was ended by stratum_skip_step.
 */
export type StepOutcome = "accepted" | "rejected" | "exhausted" | "skipped";

/** A step attempt ended. */
export interface StepFinished extends FlowEventBase, StepPlace {
  readonly type: "step_finished";
  readonly step_mode: StepMode;
  readonly attempt: number;
  readonly child_flow_id: string | null;
  readonly outcome: StepOutcome;
  /** `ensure_failed`, `schema_failed` or `guardrail_blocked` for a rejected attempt (the response's status); else null. */
  readonly failure: string | null;
  /** The response's violation texts (for people; decide on `reasons`). */
  readonly violations: readonly string[];
  /** Why the result was rejected or exhausted, typed (empty for accepted and skipped). */
  readonly reasons: readonly Violation[];
  /** Since the attempt's dispatch in this process, or since the flow started or was restored here. */
  readonly duration_ms: number;
  /** False when the dispatch happened in another process (or before a restart): start is estimated. */
  readonly dispatched_here: boolean;
  /**
   * The output the flow stored for the step with this attempt, which `$.steps.<id>.output` reads
   * from then on: for `accepted` the result as accepted (a parallel or member step's aggregate, a
   * sub-flow's output, a cached result, with an accumulating loop's fields merged), for `exhausted`
   * the result `on_fail` routes on with. Absent when the attempt stored none. Shared with the flow:
   * an observer must not modify it. Over MCP it is sent as JSON
   * (docs/reference/runtime.md §24.3).
   */
  readonly output?: PyValue;
}

/** A gate was resolved (by a caller, or by the system on a timeout). */
interface GateResolved extends FlowEventBase, StepPlace {
  readonly type: "gate_resolved";
  readonly outcome: "approve" | "revise" | "kill";
  readonly resolved_by: "human" | "agent" | "system";
  readonly rationale: string;
  readonly duration_ms: number;
  readonly dispatched_here: boolean;
  /** The named person who decided (the GateRecord's `resolved_by_name`); absent when none was named. */
  readonly resolved_by_name?: string;
}

/** A step passed over without an attempt: `skip_if`, or a gate approved by its policy. */
interface StepSkipped extends FlowEventBase, StepPlace {
  readonly type: "step_skipped";
  readonly kind: "skip" | "policy";
  readonly reason: string;
}

/**
 * The current step or gate was left without a result: a revert, a revise or kill that routed
 * elsewhere, a detached child.
 */
interface StepAbandoned extends FlowEventBase, StepPlace {
  readonly type: "step_abandoned";
  readonly step_mode: StepMode | "gate";
  readonly attempt: number;
  readonly child_flow_id: string | null;
  readonly duration_ms: number;
  readonly dispatched_here: boolean;
}

/**
 * A flow stopped being in progress: `complete`, `killed`, `exhausted` (retries_exhausted; a later
 * skip or revert may still move it on), `budget_exhausted` (a run-budget cap was reached) or
 * `detached` (a child dropped while in progress).
 */
interface FlowFinished extends FlowEventBase {
  readonly type: "flow_finished";
  readonly parent_flow_id: string | null;
  readonly parent_step_id: string | null;
  readonly status: "complete" | "killed" | "exhausted" | "budget_exhausted" | "detached";
  /** Since the flow started in this process, or was restored here. */
  readonly duration_ms: number;
  /** For `complete`: the step whose stored output is the flow's `output` (null: none, output null). */
  readonly output_step_id: string | null;
}

/**
 * Members of a quorum, race or debate step judged in this call whose report did not count (a
 * lost race's earlier candidates were in earlier calls' events). Comes before the step's
 * step_finished when the call also ended the attempt.
 */
export interface MembersJudged extends FlowEventBase {
  readonly type: "members_judged";
  readonly step_id: string;
  readonly members: readonly MemberViolation[];
}

/**
 * An expression outside ensure failed: `skip_if` (the step was not skipped; the response has a
 * warning), an iteration's `exit_criterion` or `accumulate` (`exit_criterion_error`,
 * `accumulate_error`) or its `score_expr` (the history entry's `score_error`). `error` is what it raised; null when it returned an unusable value.
 */
export interface ExpressionFailed extends FlowEventBase {
  readonly type: "expression_failed";
  readonly step_id: string;
  readonly field: "skip_if" | "exit_criterion" | "accumulate" | "score_expr";
  readonly error: RaisedError | null;
  /** The text the response carries. */
  readonly text: string;
}

/** A route was taken: `next` or `on_fail` of a step, `on_approve` / `on_revise` / `on_kill` of a gate. */
export interface StepRouted extends FlowEventBase {
  readonly type: "step_routed";
  readonly from_step_id: string;
  readonly to_step_id: string;
  readonly route: RouteField;
}

export type FlowEvent =
  | FlowStarted
  | StepDispatched
  | GateAwaited
  | StepFinished
  | GateResolved
  | StepSkipped
  | StepAbandoned
  | FlowFinished
  | MembersJudged
  | ExpressionFailed
  | StepRouted;

/**
 * Receives the events of each committed call, in order, after the commit and before the answer.
 * It must return quickly and do its I/O later; whatever it throws is logged and ignored.
 */
export type FlowObserver = (events: readonly FlowEvent[]) => void;
