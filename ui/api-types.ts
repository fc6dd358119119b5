// The JSON that `stratumc ui`'s server sends its page (docs/guides/ui.md): shared by the server
// (ui/views.ts) and the page (ui/page/), so both sides agree on one shape. Types only.
// Values that came from agents or people (inputs, outputs, notes) are untrusted: the page shows
// them as text, never as markup.
import type { StepKind } from "../checker/index";

export type FlowListStatus =
  | "running"
  | "awaiting_gate"
  | "exhausted"
  | "complete"
  | "killed"
  | "budget_exhausted"
  | "corrupt";

export type StepState = "done" | "current" | "awaiting_gate" | "failed" | "skipped" | "pending" | "killed";

export type GateOutcome = "approve" | "revise" | "kill";

/** The gate a flow waits at (the element of `stratumc query gates`, without its schema version). */
export interface PendingGate {
  readonly step_id: string;
  readonly function: string;
  readonly on_approve: string | null;
  readonly on_revise: string | null;
  readonly on_kill: string | null;
  readonly timeout: number | null;
  /** What the gate approves: its function's intent; null when it has none. */
  readonly intent: string | null;
}

export interface FlowListItem {
  readonly flow_id: string;
  /** Empty for a corrupt flow. */
  readonly flow_name: string;
  readonly status: FlowListStatus;
  readonly current_step_id: string | null;
  readonly step_count: number;
  readonly completed_steps: number;
  readonly round: number;
  /** The last commit (the later modification time of the flow's files), ms since the epoch. */
  readonly updated_ms: number;
  readonly gate: PendingGate | null;
  /** What is wrong with a corrupt flow file; null otherwise. */
  readonly problem: string | null;
  readonly parent_flow_id: string | null;
}

export interface FlowList {
  /** `$STRATUM_HOME`. */
  readonly home: string;
  /** Flows waiting at a gate first, then running ones, then the most recently updated. */
  readonly flows: readonly FlowListItem[];
}

/** Which flows a status filter admits (the inbox's `status`). */
export type StatusFilter = "all" | "in_progress" | "awaiting_gate" | "finished";

/** A step a gate reviews: the steps it depends on, or the one before it. */
export interface ReviewedStep {
  readonly step_id: string;
  /** The step's intent, or its function's; null when it has none. */
  readonly intent: string | null;
}

/** A gate waiting for a person (`GET /api/inbox`, `waiting`). */
export interface WaitingGate {
  readonly flow_id: string;
  readonly flow_name: string;
  readonly step_id: string;
  readonly function: string;
  /** The gate function's intent; "" when it has none. */
  readonly intent: string;
  readonly reviews: readonly ReviewedStep[];
  readonly round: number;
  /**
   * When the gate started waiting, as far as the store knows: the flow's last change (a flow at
   * a gate is written again only by a refused revise or a resume).
   */
  readonly since_ms: number;
  /** The gate function's timeout in seconds; null when it has none. */
  readonly timeout: number | null;
  /** since_ms plus the timeout; null without one. */
  readonly expires_ms: number | null;
  readonly parent_flow_id: string | null;
}

/** A gate resolution recorded in a flow's trace (`GET /api/inbox`, `decisions`). */
export interface DecisionItem {
  readonly flow_id: string;
  readonly flow_name: string;
  readonly flow_status: FlowListStatus;
  readonly step_id: string;
  readonly outcome: GateOutcome;
  /** Who resolved it: the named reviewer's name when there is one, else as recorded (`human`, `agent`, `system`). */
  readonly resolved_by: string;
  /** The rationale recorded with it. */
  readonly note: string;
  readonly round: number;
  /** Its place in the flow's trace (every round's records, oldest first). */
  readonly index: number;
  /** When it was made, from the flow's review log; null when the flow did not record it (flows older than the log). */
  readonly at_ms: number | null;
  /**
   * The flow's last change. The store keeps no time per record: the decision was made then
   * or before, and then when nothing was recorded in the flow after it (`last_in_flow`).
   */
  readonly flow_updated_ms: number;
  readonly last_in_flow: boolean;
}

/** One window of a list of the inbox: `items` from `offset`, of `total` that match. */
export interface InboxPart<T> {
  readonly total: number;
  readonly offset: number;
  readonly items: readonly T[];
}

/** The page's home (`GET /api/inbox?status=&flow=&q=&outcome=&limit=&…_offset=`). */
export interface InboxView {
  /** `$STRATUM_HOME`. */
  readonly home: string;
  /** Gates waiting, oldest first. */
  readonly waiting: InboxPart<WaitingGate>;
  /** Gate resolutions, newest first (by their flow's last change, then their order in the flow). */
  readonly decisions: InboxPart<DecisionItem>;
  /** The flows (FlowList's order). */
  readonly flows: InboxPart<FlowListItem>;
  /** How many flows the store holds, and how many of them wait at a gate (whatever the filters). */
  readonly flow_count: number;
  readonly waiting_count: number;
  /** The flow names in the store, sorted (at most 500): the choices of the `flow` filter. */
  readonly flow_names: readonly string[];
}

/** A trace record as stored (docs/reference/runtime.md §14.1): `type`, `step_id`, `round` and the fields of its type. */
export interface AuditRecord {
  readonly type: "step" | "gate" | "skip" | "policy";
  readonly step_id: string;
  readonly round: number;
  readonly [field: string]: unknown;
}

export interface GraphNodeView {
  readonly id: string;
  readonly kind: StepKind;
  /** The function or sub-flow the step runs; null for inline steps. */
  readonly target: string | null;
  readonly state: StepState;
}

export interface GraphEdgeView {
  readonly from: string;
  /** null: the flow's end. */
  readonly to: string | null;
  readonly route: "next" | "on_fail" | "approve" | "revise" | "kill" | null;
  /** Execution order only (layout), no dependency. */
  readonly order?: true;
}

export interface StepView {
  readonly id: string;
  readonly kind: StepKind;
  readonly target: string | null;
  readonly state: StepState;
  readonly attempts: number;
  readonly retries: number;
  /** The step's accepted output; null when it has none. */
  readonly output: unknown;
  readonly child_flow_id: string | null;
  /** This step's trace records, oldest first. */
  readonly records: readonly AuditRecord[];
}

export interface FlowPage {
  readonly flow: FlowListItem;
  /** The flow's stored revision: a gate resolution names it, so a stale page is refused. */
  readonly revision: number;
  /** The spec's source: all of it, or of a long spec the 1,000 lines around the current step's. */
  readonly spec: {
    readonly source: string;
    /** 1-based line of the spec where `source` starts. */
    readonly first_line: number;
    /** How many lines the whole spec has. */
    readonly line_count: number;
    /** 1-based line of the current step in the whole spec; null when none. */
    readonly current_step_line: number | null;
  };
  /** null when the flow has more steps than the page draws (views.ts GRAPH_MAX_STEPS). */
  readonly graph: {
    readonly nodes: readonly GraphNodeView[];
    readonly edges: readonly GraphEdgeView[];
  } | null;
  /**
   * A window of the steps, in the flow's order: `limit` of them (100 unless asked) from
   * `steps_offset` (unless asked, the window that holds the current step).
   */
  readonly steps: readonly StepView[];
  readonly steps_offset: number;
  readonly steps_total: number;
  /**
   * A window of the trace records, oldest first (earlier rounds included): `limit` of them from
   * `audit_offset` (unless asked, the window that holds the latest).
   */
  readonly audit: readonly AuditRecord[];
  readonly audit_offset: number;
  readonly audit_total: number;
  readonly gate: PendingGate | null;
  readonly inputs: unknown;
  /** false when the signed-in person may not resolve this gate (`--users` with may_resolve): the page shows it read-only. */
  readonly may_resolve?: false;
  /** What a person deciding the gate is shown (ui/gate-review.ts); null unless the flow waits at a gate. */
  readonly review: GateReview | null;
  /**
   * A long flow's first answer from a server that had not read it (ui/first-page.ts): built from
   * the flow file and the steps around the current one, the spec not checked yet; no gate, review
   * or graph. The page shows it and asks again for the checked page. Absent on a checked page.
   */
  readonly unchecked?: true;
}

/** At the gate (docs/guides/ui-at-the-gate.md): what the steps under review went through, and earlier decisions. */
export interface GateReview {
  readonly gate_step_id: string;
  /** The gate step's lines in the spec, a few around it, with the gate's own line marked. */
  readonly spec_excerpt: {
    readonly first_line: number;
    readonly lines: readonly string[];
    readonly gate_line: number;
  } | null;
  /** The steps under review, in flow order (ui/gate-review.ts says which), at most 10. */
  readonly steps: readonly StepUnderReview[];
  /** Earlier resolutions of this flow's gates, oldest first, every round: the latest 50. */
  readonly decisions: readonly GateDecision[];
  readonly decisions_total: number;
}

export interface StepUnderReview {
  readonly step_id: string;
  /** The step's rejected attempts the flow kept (its latest few), oldest first. */
  readonly rejected: readonly RejectedAttempt[];
  /** The step's result under review compared with its previous attempt and/or its previous round's result. */
  readonly comparisons: readonly ResultComparison[];
}

export interface RejectedAttempt {
  readonly round: number;
  readonly attempt: number;
  /** True for the last attempt allowed (the step then failed or was routed by on_fail). */
  readonly exhausted: boolean;
  readonly at_ms: number;
  /** The violation texts the flow answered with (untrusted text): the first 10, each cut at 1,000 characters. */
  readonly violations: readonly string[];
  /** How many more violation texts the attempt had. */
  readonly more_violations: number;
}

export interface ResultComparison {
  /** `attempt`: the rejected result of the attempt before, this round; `round`: the result a revise replaced. */
  readonly against: "attempt" | "round";
  readonly round: number;
  readonly attempt: number;
  /** The earlier result was too large to keep: no diff. */
  readonly omitted: boolean;
  readonly changes: readonly DiffChange[];
  /** Whether changes were left out (100 per comparison, 200 in the whole review). */
  readonly more: boolean;
}

/** One change, earlier → under review; values as JSON text, cut at 400 characters. */
export interface DiffChange {
  readonly op: "added" | "removed" | "changed";
  /** The path, e.g. `$.items[2].name`. */
  readonly path: string;
  readonly old: string | null;
  readonly new: string | null;
}

export interface GateDecision {
  readonly step_id: string;
  readonly round: number;
  readonly outcome: GateOutcome;
  /** The record's `resolved_by_name` when a named person decided, else its `resolved_by`. */
  readonly resolved_by: string;
  /** Cut at 2,000 characters. */
  readonly note: string;
  /** null when the flow did not record the time (flows older than the review log, or its oldest entries). */
  readonly at_ms: number | null;
}

/** A page of a flow's steps or audit records (`GET /api/flows/<id>/steps?offset=&limit=`, `/audit`). */
export interface ItemsPage<T> {
  /** The flow's revision these items were read at. */
  readonly revision: number;
  readonly total: number;
  readonly offset: number;
  readonly items: readonly T[];
}

export interface GateRequest {
  readonly step_id: string;
  readonly outcome: GateOutcome;
  readonly note: string;
  /** FlowPage.revision as the page showed it. */
  readonly revision: number;
}

export interface GateAnswerView {
  readonly ok: true;
  readonly outcome: GateOutcome;
  /** What the flow does next: execute_step, await_gate, execute_flow, complete, killed; null for a refused revise. */
  readonly next: string | null;
}

/** `POST /api/session`: the page's session for the token it showed. */
export interface SessionView {
  readonly session: string;
  /** ms since the epoch. */
  readonly expires_ms: number;
  /** Who signed in (`stratumc ui --users`); null with the single token. */
  readonly name: string | null;
  /** The flow store the server reads, for the page's header (FlowList.home). */
  readonly home: string;
}

export interface ApiError {
  readonly error: { readonly code: string; readonly message: string };
}
