// The gate decisions a person made anywhere in a flow's tree: the flow's own trace (every round),
// the audits of its finished sub-flows (`child_audits`, each holding its own `child_audits`), and
// the sub-flow it is running now (`active_child_flow_id`, read from the store, with its own tree).
// A revert of the flow replaces all of these, so the refusal of STRATUM_GATES=human looks at all.
import { dictGetStr } from "../../stdlib/values/dict";
import { PyDict, PyFloat } from "../../stdlib/values/value";
import type { Snapshot, TraceRecord } from "../base/flow-state";
import type { Wire, WireObject } from "../wire/wire";

/** The part of a flow (or of a checkpoint of it) that holds decisions. */
export type DecisionTree = Pick<Snapshot, "records" | "rounds" | "child_audits" | "active_child_flow_id">;

/** A live flow as stored now (its name, the parent's step that runs it, its tree); null when gone. */
export type ReadFlow = (flowId: string) => LiveFlow | null;

export interface LiveFlow {
  readonly flow_name: string;
  readonly parent_step_id: string | null;
  readonly tree: DecisionTree;
}

export interface FlowName {
  readonly flow_id: string;
  readonly flow_name: string;
}

/** One gate decision with `resolved_by: "human"`, and the flow it was made in. */
export interface HumanDecision extends FlowName {
  /** The sub-flow steps from the walked flow down to the flow of the gate; empty for its own gates. */
  readonly via: readonly string[];
  readonly step_id: string;
  readonly outcome: string;
  readonly round: number;
  readonly rationale: string;
  readonly duration_ms: number;
  /** The named person (`resolved_by_name`), else null. */
  readonly resolved_by_name: string | null;
}

/**
 * The person's decisions in `tree` (of flow `flow`) and below it, each flow's in trace order, a
 * flow's own before its sub-flows'. A sub-flow may be held more than once (audited at two reports
 * of its step, or audited and still the running child): its copies are one flow, so a decision
 * counts once however many copies hold it.
 */
export function humanDecisionsIn(flow: FlowName, tree: DecisionTree, read: ReadFlow): HumanDecision[] {
  const byFlow = new Map<string, Map<string, HumanDecision[]>>();
  const seen = new Set<string>();
  const collect = (at: FlowName & { readonly via: readonly string[] }, records: readonly Wire[]): void => {
    const merged = byFlow.get(at.flow_id) ?? new Map<string, HumanDecision[]>();
    byFlow.set(at.flow_id, merged);
    const copy = new Map<string, HumanDecision[]>();
    for (const d of decisionsOf(at, records))
      copy.set(decisionKey(d), [...(copy.get(decisionKey(d)) ?? []), d]);
    for (const [key, ds] of copy) if ((merged.get(key)?.length ?? 0) < ds.length) merged.set(key, ds);
  };
  const walkAudit = (audit: Wire, via: readonly string[]): void => {
    const id = str(field(audit, "flow_id"));
    if (id === null || seen.has(id)) return;
    seen.add(id);
    const here = { flow_id: id, flow_name: str(field(audit, "flow_name")) ?? "", via };
    const rounds = list(field(audit, "rounds")).flatMap((round) => list(field(round, "steps")));
    collect(here, [...rounds, ...list(field(audit, "trace"))]);
    children(field(audit, "child_audits"), via);
    seen.delete(id);
  };
  const children = (audits: Wire, via: readonly string[]): void => {
    for (const [stepId, entries] of entriesOf(audits)) {
      for (const audit of list(entries)) walkAudit(audit, [...via, stepId]);
    }
  };
  const walkLive = (here: FlowName, t: DecisionTree, via: readonly string[]): void => {
    if (seen.has(here.flow_id)) return;
    seen.add(here.flow_id);
    const at = { ...here, via };
    collect(at, [...t.rounds.flat(), ...t.records] as unknown as Wire[]);
    children(t.child_audits, via);
    const childId = t.active_child_flow_id;
    const child = childId === null ? null : read(childId);
    if (childId !== null && child !== null) {
      const step = child.parent_step_id ?? "";
      walkLive({ flow_id: childId, flow_name: child.flow_name }, child.tree, [...via, step]);
    }
    seen.delete(here.flow_id);
  };
  walkLive(flow, tree, []);
  return [...byFlow.values()].flatMap((merged) => [...merged.values()].flat());
}

/** A decision's identity across copies and store round trips (records are immutable once written). */
export function decisionKey(d: HumanDecision): string {
  return JSON.stringify([
    d.flow_id,
    d.step_id,
    d.outcome,
    d.round,
    d.rationale,
    d.duration_ms,
    d.resolved_by_name,
  ]);
}

function decisionsOf(
  at: FlowName & { readonly via: readonly string[] },
  records: readonly Wire[],
): HumanDecision[] {
  const out: HumanDecision[] = [];
  for (const r of records) {
    if (field(r, "type") !== "gate" || field(r, "resolved_by") !== "human") continue;
    out.push({
      ...at,
      step_id: str(field(r, "step_id")) ?? "",
      outcome: str(field(r, "outcome")) ?? "",
      round: num(field(r, "round")),
      rationale: str(field(r, "rationale")) ?? "",
      duration_ms: num(field(r, "duration_ms")),
      resolved_by_name: str(field(r, "resolved_by_name")),
    });
  }
  return out;
}

/** A key of an audit object: a plain object in memory, a PyDict once read back from the store. */
function field(v: Wire | TraceRecord, key: string): Wire {
  if (v instanceof PyDict) return dictGetStr(v, key);
  if (v instanceof Map) return (v as ReadonlyMap<string, Wire>).get(key);
  if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  return Object.hasOwn(v, key) ? (v as WireObject)[key] : undefined;
}

function entriesOf(v: Wire): [string, Wire][] {
  if (v instanceof Map) return [...(v as ReadonlyMap<string, Wire>)];
  if (v instanceof PyDict) {
    return [...v.entries.values()].flatMap(([k, x]) =>
      typeof k === "string" ? [[k, x] as [string, Wire]] : [],
    );
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return [];
  return Object.entries(v as WireObject);
}

function list(v: Wire): readonly Wire[] {
  return Array.isArray(v) ? (v as readonly Wire[]) : [];
}

function str(v: Wire): string | null {
  return typeof v === "string" ? v : null;
}

function num(v: Wire): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof PyFloat) return v.v;
  return 0;
}
