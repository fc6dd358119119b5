// What `stratumc ui` shows, built from restored flows (docs/guides/ui.md): the flows list and one flow's
// page, as plain JSON for the page (ui/api-types.ts). Pure: the caller loads the flows. Built
// from the same query objects as `stratumc query` (flowSummary, pendingGate) and the stored trace records, so the
// page and the CLI cannot disagree about a flow's status or its current step.

import { flowGraphs, LineMap } from "../checker/index";
import type { FlowRun, Wire } from "../interpreter/index";
import { flowSummary, pendingGate, wireToPlain } from "../interpreter/index";
import type {
  AuditRecord,
  FlowListItem,
  FlowListStatus,
  FlowPage,
  GraphNodeView,
  PendingGate,
  StepState,
  StepView,
} from "./api-types";
import { gateReview } from "./gate-review";

/** One row of the flows list. */
export function flowListItem(run: FlowRun, updatedMs: number): FlowListItem {
  const summary = flowSummary(run);
  return {
    flow_id: run.state.flow_id,
    flow_name: run.state.flow_name,
    status: summary.status as FlowListStatus,
    current_step_id: typeof summary.current_step_id === "string" ? summary.current_step_id : null,
    step_count: run.flow.steps.length,
    completed_steps: run.state.current_idx,
    round: run.state.round,
    updated_ms: updatedMs,
    gate: gateOf(run),
    problem: null,
    parent_flow_id: run.state.parent_flow_id,
  };
}

/** The row of a flow file that cannot be decoded: nothing known but its id and what is wrong. */
export function corruptListItem(flowId: string, problem: string, updatedMs: number): FlowListItem {
  return {
    flow_id: flowId,
    flow_name: "",
    status: "corrupt",
    current_step_id: null,
    step_count: 0,
    completed_steps: 0,
    round: 0,
    updated_ms: updatedMs,
    gate: null,
    problem,
    parent_flow_id: null,
  };
}

const STATUS_ORDER: Readonly<Record<FlowListStatus, number>> = {
  awaiting_gate: 0,
  running: 1,
  exhausted: 2,
  corrupt: 3,
  killed: 4,
  budget_exhausted: 4,
  complete: 4,
};

/** Flows waiting at a gate first, then running ones, then the rest; most recently updated first within each. */
export function sortFlowList(items: FlowListItem[]): FlowListItem[] {
  return items.sort(
    (a, b) =>
      STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
      b.updated_ms - a.updated_ms ||
      (a.flow_id < b.flow_id ? -1 : a.flow_id > b.flow_id ? 1 : 0),
  );
}

/** How many steps and audit records one answer carries unless asked for fewer or more (docs/guides/ui.md). */
export const PAGE_SIZE = 100;
/** The most one answer carries, whatever is asked: each answer stays small (tens of KB per hundred). */
const MAX_PAGE_SIZE = 2_000;
/** At most this many lines of a spec are sent (a spec may be up to 8 MiB; the page draws each line). */
const SPEC_MAX_LINES = 1_000;
/** Above this many steps (one window of the steps list) the graph is not sent: drawn, it would be unreadable and slow to lay out. */
const GRAPH_MAX_STEPS = PAGE_SIZE;

/**
 * What every answer about one flow is cut from: built once per stored version of the flow (the
 * server keeps it while the flow's change token holds), so a page of steps costs its own size,
 * not the flow's.
 */
export interface FlowModel {
  readonly run: FlowRun;
  readonly item: FlowListItem;
  readonly states: ReadonlyMap<string, StepState>;
  /** Every trace record, oldest first (earlier rounds included). */
  readonly audit: readonly AuditRecord[];
  readonly byStep: ReadonlyMap<string, AuditRecord[]>;
  /**
   * The spec's window around the current step and the gate's review: the same for every page of
   * one model, and each scans the whole spec text (a long flow's is megabytes), so made once.
   */
  readonly spec: FlowPage["spec"];
  readonly review: FlowPage["review"];
}

export function flowModel(run: FlowRun, updatedMs: number): FlowModel {
  const item = flowListItem(run, updatedMs);
  // Trace records hold strings, numbers and nulls only: a copy of each is plain JSON already.
  const audit: AuditRecord[] = [...run.state.rounds.flat(), ...run.state.records].map((r) => ({ ...r }));
  const current = run.flow.steps.find((s) => s.id === item.current_step_id);
  const spec = specWindow(
    run.state.raw_spec,
    current === undefined ? null : new LineMap(run.state.raw_spec).position(current.range.start).line,
  );
  const review = item.gate === null ? null : gateReview(run, item.gate.step_id);
  return {
    run,
    item,
    states: stepStates(run.state.records, item),
    audit,
    byStep: recordsByStep(audit),
    spec,
    review,
  };
}

/** Which steps and audit records a flow's page carries (`GET /api/flows/<id>?steps_offset=&audit_offset=&limit=`). */
export interface PageWindow {
  readonly limit?: number;
  /** Default: the page of `limit` steps that holds the current step. */
  readonly stepsOffset?: number;
  /** Default: the page of `limit` records that holds the latest. */
  readonly auditOffset?: number;
}

/** The page of one flow: a window of its steps and of its audit records, and how many there are. */
export function flowPage(run: FlowRun | FlowModel, updatedMs: number, window: PageWindow = {}): FlowPage {
  const model = "item" in run ? run : flowModel(run, updatedMs);
  const limit = clampLimit(window.limit ?? PAGE_SIZE);
  const stepsOffset =
    window.stepsOffset ??
    pageStart(Math.min(model.item.completed_steps, model.run.flow.steps.length - 1), limit);
  const auditOffset = window.auditOffset ?? pageStart(model.audit.length - 1, limit);
  const { item, states } = model;
  const flow = model.run;
  const graph =
    flow.flow.steps.length > GRAPH_MAX_STEPS
      ? null
      : flowGraphs(flow.spec).find((g) => g.name === flow.flow.name);
  return {
    flow: item,
    revision: flow.state.revision,
    spec: model.spec,
    graph:
      graph === null
        ? null
        : {
            nodes: (graph?.nodes ?? []).map(
              (n): GraphNodeView => ({ ...n, state: states.get(n.id) ?? "pending" }),
            ),
            edges: graph?.edges ?? [],
          },
    steps: stepSlice(model, stepsOffset, limit),
    steps_offset: stepsOffset,
    steps_total: flow.flow.steps.length,
    audit: model.audit.slice(auditOffset, auditOffset + limit),
    audit_offset: auditOffset,
    audit_total: model.audit.length,
    gate: item.gate,
    inputs: plain(flow.state.inputs),
    review: model.review,
  };
}

/** The lines of a spec the page shows: all of a short one; of a long one, SPEC_MAX_LINES around the current step's. */
export function specWindow(source: string, current: number | null): FlowPage["spec"] {
  // Offsets, not `split`: a long flow's spec has tens of thousands of lines, and this is part of
  // the first answer about it (first-page.ts).
  const body = source.endsWith("\n") ? source.length - 1 : source.length;
  let count = 1;
  for (let at = source.indexOf("\n"); at !== -1 && at < body; at = source.indexOf("\n", at + 1)) count++;
  if (count <= SPEC_MAX_LINES)
    return { source, first_line: 1, line_count: count, current_step_line: current };
  const first = Math.min(Math.max(0, (current ?? 1) - 1 - SPEC_MAX_LINES / 2), count - SPEC_MAX_LINES);
  return {
    source: `${source.slice(lineStart(source, first), lineStart(source, first + SPEC_MAX_LINES) - 1)}\n`,
    first_line: first + 1,
    line_count: count,
    current_step_line: current,
  };
}

/** Where 0-based line `line` of `source` starts (its length + 1 past the last line). */
function lineStart(source: string, line: number): number {
  let at = 0;
  for (let i = 0; i < line; i++) {
    const next = source.indexOf("\n", at);
    if (next === -1) return source.length + 1;
    at = next + 1;
  }
  return at;
}

/** The first index of the page of `limit` items that holds `index` (0 for none). */
export function pageStart(index: number, limit: number): number {
  return index <= 0 ? 0 : Math.floor(index / limit) * limit;
}

/** `limit` within 1 … MAX_PAGE_SIZE. */
export function clampLimit(limit: number): number {
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(limit)));
}

/** Steps `offset` … `offset + limit` of the flow, in the flow's order. */
export function stepSlice(model: FlowModel, offset: number, limit: number): StepView[] {
  const { run, states, byStep } = model;
  return run.flow.steps.slice(offset, offset + clampLimit(limit)).map(
    (s): StepView => ({
      id: s.id,
      kind: s.kind,
      target: s.function ?? s.flow,
      state: states.get(s.id) ?? "pending",
      attempts: run.state.attempts.get(s.id) ?? 0,
      retries: s.retries,
      output: plain(run.state.step_outputs.get(s.id)),
      child_flow_id: childFlowOf(byStep.get(s.id) ?? [], s.id, run),
      records: byStep.get(s.id) ?? [],
    }),
  );
}

/**
 * Each step's state in the current round: what its last record says (step → done, skip →
 * skipped, gate → done or killed, a gate's policy → skipped, or done when only flagged), the current step's from the flow's status (running → current,
 * awaiting_gate, exhausted → failed, killed → killed), and pending for the rest.
 */
export function stepStates(
  records: readonly {
    readonly type: string;
    readonly step_id: string;
    readonly outcome?: unknown;
    readonly effective_policy?: unknown;
  }[],
  item: FlowListItem,
): Map<string, StepState> {
  const states = new Map<string, StepState>();
  for (const record of records) {
    if (record.type === "skip") states.set(record.step_id, "skipped");
    else if (record.type === "policy")
      states.set(record.step_id, record.effective_policy === "flag" ? "done" : "skipped");
    else if (record.type === "gate")
      states.set(record.step_id, record.outcome === "kill" ? "killed" : "done");
    else states.set(record.step_id, "done");
  }
  const current = item.current_step_id;
  if (current !== null) {
    const byStatus: Partial<Record<FlowListStatus, StepState>> = {
      running: "current",
      awaiting_gate: "awaiting_gate",
      exhausted: "failed",
      killed: "killed",
    };
    const state = byStatus[item.status];
    if (state !== undefined) states.set(current, state);
  }
  return states;
}

function gateOf(run: FlowRun): PendingGate | null {
  const gate = pendingGate(run);
  if (gate === null) return null;
  const { _schema_version: _, ...rest } = gate;
  // A gate step names its function, whose intent says what is approved (a step of its own has none).
  const intent = run.spec.functions.get(rest.function as string)?.intent || null;
  return { ...(rest as unknown as PendingGate), intent };
}

/** The sub-flow a step ran (the child of its latest record that has one), or the child running now. */
function childFlowOf(records: readonly AuditRecord[], stepId: string, run: FlowRun): string | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const child = records[i]?.child_flow_id;
    if (typeof child === "string") return child;
  }
  const current = run.flow.steps[run.state.current_idx];
  return current?.id === stepId ? run.state.active_child_flow_id : null;
}

/** Each step's records, oldest first, in one pass (a 10,000-step flow has as many records). */
export function recordsByStep(audit: readonly AuditRecord[]): Map<string, AuditRecord[]> {
  const byStep = new Map<string, AuditRecord[]>();
  for (const r of audit) {
    const list = byStep.get(r.step_id);
    if (list === undefined) byStep.set(r.step_id, [r]);
    else list.push(r);
  }
  return byStep;
}

/** A stored value as plain JSON data (PyDict → object, PyFloat → number); null when absent. */
function plain(value: Wire | undefined): unknown {
  return value === undefined ? null : wireToPlain(value);
}
