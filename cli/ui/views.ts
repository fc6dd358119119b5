// What `stratumc ui` shows, built from restored flows (docs/ui.md): the flows list and one flow's
// page, as plain JSON for the page (cli/ui/api-types.ts). Pure: the caller loads the flows. Built
// from the same query objects as `stratumc query` (flowSummary, pendingGate) and the stored trace records, so the
// page and the CLI cannot disagree about a flow's status or its current step.
import { LineMap } from "../../checker/index";
import type { FlowRun, Wire } from "../../interpreter/index";
import { flowSummary, pendingGate, wireToPlain } from "../../interpreter/index";
import { flowGraphs } from "../graph/model";
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

/** The page of one flow. */
export function flowPage(run: FlowRun, updatedMs: number): FlowPage {
  const item = flowListItem(run, updatedMs);
  const states = stepStates(run, item);
  // Trace records hold strings, numbers and nulls only: a copy of each is plain JSON already.
  const audit: AuditRecord[] = [...run.state.rounds.flat(), ...run.state.records].map((r) => ({ ...r }));
  const byStep = recordsByStep(audit);
  const current = run.flow.steps.find((s) => s.id === item.current_step_id);
  const graph = flowGraphs(run.spec).find((g) => g.name === run.flow.name);
  return {
    flow: item,
    revision: run.state.revision,
    spec: {
      source: run.state.raw_spec,
      current_step_line:
        current === undefined ? null : new LineMap(run.state.raw_spec).position(current.range.start).line,
    },
    graph: {
      nodes: (graph?.nodes ?? []).map((n): GraphNodeView => ({ ...n, state: states.get(n.id) ?? "pending" })),
      edges: graph?.edges ?? [],
    },
    steps: run.flow.steps.map(
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
    ),
    audit,
    gate: item.gate,
    inputs: plain(run.state.inputs),
  };
}

/**
 * Each step's state in the current round: what its last record says (step → done, skip →
 * skipped, gate → done or killed, a gate's policy → skipped, or done when only flagged), the current step's from the flow's status (running → current,
 * awaiting_gate, exhausted → failed, killed → killed), and pending for the rest.
 */
function stepStates(run: FlowRun, item: FlowListItem): Map<string, StepState> {
  const states = new Map<string, StepState>();
  for (const record of run.state.records) {
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
  return rest as unknown as PendingGate;
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
function recordsByStep(audit: readonly AuditRecord[]): Map<string, AuditRecord[]> {
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
