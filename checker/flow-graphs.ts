// The flows of a checked spec as a plain graph for drawing: one node per step in execution order,
// dependency edges (depends_on and `$.steps` input references), routing edges (next, on_fail,
// gate approve/revise/kill) and invisible order edges between consecutive steps that no dependency
// joins (layout only). A gate route that is null ends the flow: it points at the flow's END.
// Shared by `stratumc graph` and the page of `stratumc ui`.
import type { StepKind } from "./base/step-kinds";
import type { CheckedSpec, StepIR } from "./ir/types";

/** A node is drawn by its step's kind (checker/base/step-kinds.ts lists them). */
export type NodeKind = StepKind;
type RouteLabel = "next" | "on_fail" | "approve" | "revise" | "kill";
/** A dependency (solid), a route (dashed, labelled), or execution order only (invisible, for the layout). */

export interface GraphNode {
  /** Step id. */
  readonly id: string;
  readonly kind: NodeKind;
  /** The function or sub-flow it runs (null for inline steps). */
  readonly target: string | null;
}

interface GraphEdge {
  readonly from: string;
  /** A step id, or null for the flow's END. */
  readonly to: string | null;
  /** null for dependency and order edges. */
  readonly route: RouteLabel | null;
  /** Order edges join consecutive steps that no dependency joins, so drawings read top-down in execution order. */
  readonly order?: true;
}

export interface GraphFlow {
  readonly name: string;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

export function flowGraphs(ir: CheckedSpec): GraphFlow[] {
  return [...ir.flows.values()].map((flow) => ({
    name: flow.name,
    nodes: flow.steps.map((s) => ({ id: s.id, kind: s.kind, target: s.function ?? s.flow })),
    edges: [...flow.steps.flatMap(edgesOf), ...orderEdges(flow.steps)],
  }));
}

function orderEdges(steps: readonly StepIR[]): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (let i = 1; i < steps.length; i++) {
    const prev = steps[i - 1];
    const step = steps[i];
    if (prev === undefined || step === undefined || step.dependencies.includes(prev.id)) continue;
    edges.push({ from: prev.id, to: step.id, route: null, order: true });
  }
  return edges;
}

function edgesOf(s: StepIR): GraphEdge[] {
  const edges: GraphEdge[] = s.dependencies.map((d) => ({ from: d, to: s.id, route: null }));
  if (s.kind === "gate") {
    edges.push({ from: s.id, to: s.onApprove, route: "approve" });
    if (s.onRevise !== null) edges.push({ from: s.id, to: s.onRevise, route: "revise" });
    edges.push({ from: s.id, to: s.onKill, route: "kill" });
  } else {
    if (s.next !== null) edges.push({ from: s.id, to: s.next, route: "next" });
    if (s.onFail !== null) edges.push({ from: s.id, to: s.onFail, route: "on_fail" });
  }
  return edges;
}
