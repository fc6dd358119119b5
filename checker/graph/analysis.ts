// Everything the graph rules and later phases need to know about one flow's dependency graph,
// computed once per FlowDecl (memoised in a WeakMap: the model is immutable).
import type { FlowDecl, StepDecl } from "../model/types";
import { edgesOf } from "./edges";
import { stableOrder } from "./order";
import { type Components, stronglyConnected } from "./scc";
import type { DependencyEdge, FlowGraph } from "./types";

export interface FlowAnalysis {
  readonly flow: FlowDecl;
  /** The steps with a valid id, in declaration order; a node is its index here. */
  readonly nodes: readonly StepDecl[];
  readonly nodeOf: ReadonlyMap<StepDecl, number>;
  readonly edges: readonly DependencyEdge[];
  /** The edges whose source is node `i`, in source order. */
  readonly edgesFrom: readonly (readonly DependencyEdge[])[];
  /** The distinct nodes node `i` depends on, ascending. */
  readonly succ: readonly (readonly number[])[];
  readonly components: Components;
  /** The components that contain a cycle (more than one node, or a self-edge), by smallest member. */
  readonly cyclic: readonly (readonly number[])[];
  /** Node indices in execution order; null when there is a cycle. */
  readonly order: readonly number[] | null;
  readonly graph: FlowGraph;
}

const memo = new WeakMap<FlowDecl, FlowAnalysis>();

export function analyseFlow(flow: FlowDecl): FlowAnalysis {
  let analysis = memo.get(flow);
  if (analysis === undefined) {
    analysis = analyse(flow);
    memo.set(flow, analysis);
  }
  return analysis;
}

function analyse(flow: FlowDecl): FlowAnalysis {
  const nodes = flow.steps.filter((s) => s.id !== null);
  const nodeOf = new Map<StepDecl, number>();
  nodes.forEach((s, i) => {
    nodeOf.set(s, i);
  });
  const edgesFrom = nodes.map((s) => edgesOf(s, flow));
  const edges = edgesFrom.flat();
  const succ = edgesFrom.map((list) => {
    const targets = new Set<number>();
    for (const e of list) {
      const to = nodeOf.get(e.to);
      if (to !== undefined) targets.add(to);
    }
    return [...targets].sort((a, b) => a - b);
  });
  const components = stronglyConnected(succ);
  const cyclic = components.members
    .filter((m) => m.length > 1 || (m[0] !== undefined && (succ[m[0]] as number[]).includes(m[0])))
    .sort((a, b) => (a[0] as number) - (b[0] as number));
  const order = cyclic.length > 0 ? null : stableOrder(succ);
  const graph = makeGraph(nodes, nodeOf, edges, succ, order, cyclic.length > 0);
  return { flow, nodes, nodeOf, edges, edgesFrom, succ, components, cyclic, order, graph };
}

function makeGraph(
  nodes: readonly StepDecl[],
  nodeOf: ReadonlyMap<StepDecl, number>,
  edges: readonly DependencyEdge[],
  succ: readonly (readonly number[])[],
  order: readonly number[] | null,
  hasCycle: boolean,
): FlowGraph {
  const reached = new Map<number, ReadonlySet<string>>();
  const none: ReadonlySet<string> = new Set();
  return {
    edges,
    hasCycle,
    order: order === null ? null : order.map((i) => nodes[i] as StepDecl),
    transitiveDependencies(step: StepDecl): ReadonlySet<string> {
      const start = nodeOf.get(step);
      if (start === undefined) return none;
      let ids = reached.get(start);
      if (ids === undefined) {
        ids = reachableIds(nodes, succ, start);
        reached.set(start, ids);
      }
      return ids;
    },
  };
}

/** Ids of the nodes reachable from `start` over one or more edges (breadth-first, no recursion). */
function reachableIds(
  nodes: readonly StepDecl[],
  succ: readonly (readonly number[])[],
  start: number,
): ReadonlySet<string> {
  const seen = new Uint8Array(nodes.length);
  const ids = new Set<string>();
  const queue: number[] = [...(succ[start] as number[])];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] as number;
    if (seen[v] === 1) continue;
    seen[v] = 1;
    const id = nodes[v]?.id;
    if (id !== null && id !== undefined) ids.add(id);
    for (const w of succ[v] as number[]) if (seen[w] === 0) queue.push(w);
  }
  return ids;
}
