// The flow call graph (docs/reference/language.md §9.5.4 "Recursion"): flow `X` calls `Y` when one of its
// sub-flow steps targets `Y`. Chains are shortest paths found breadth-first; ties go to the
// earlier-declared flow, then the earlier-declared step.
import type { FlowDecl, SpecModel, StepDecl } from "../model/types";

export interface FlowCall {
  readonly step: StepDecl;
  /** Index of the target flow in `model.flows`. */
  readonly target: number;
}

export interface CallGraph {
  /** Every sub-flow step with an existing target, per flow index, in step declaration order. */
  readonly calls: readonly (readonly FlowCall[])[];
  /** Per flow: one call per distinct target (its first step), ascending by target index. */
  readonly firstCalls: readonly (readonly FlowCall[])[];
}

export function buildCallGraph(model: SpecModel): CallGraph {
  const indexOf = new Map<FlowDecl, number>();
  model.flows.forEach((f, i) => {
    indexOf.set(f, i);
  });
  const targetIndex = (t: FlowDecl): number | undefined => {
    const i = indexOf.get(t);
    if (i !== undefined) return i;
    const byName = model.flowByName.get(t.name);
    return byName === undefined ? undefined : indexOf.get(byName);
  };
  const calls = model.flows.map((flow) =>
    flow.steps.flatMap((step): FlowCall[] => {
      if (step.kind !== "flow" || step.target === null) return [];
      const target = targetIndex(step.target);
      return target === undefined ? [] : [{ step, target }];
    }),
  );
  const firstCalls = calls.map((list) => {
    const seen = new Map<number, FlowCall>();
    for (const c of list) if (!seen.has(c.target)) seen.set(c.target, c);
    return [...seen.values()].sort((a, b) => a.target - b.target);
  });
  return { calls, firstCalls };
}

/**
 * The calls of the shortest chain from flow `from` to flow `to` (breadth-first, ties by flow then
 * step declaration order); `[]` when `from === to`, null when `to` is not reachable.
 */
export function shortestCalls(graph: CallGraph, from: number, to: number): FlowCall[] | null {
  if (from === to) return [];
  const via = new Map<number, { readonly parent: number; readonly call: FlowCall }>();
  const queue: number[] = [from];
  for (let head = 0; head < queue.length; head++) {
    const x = queue[head] as number;
    for (const call of graph.firstCalls[x] ?? []) {
      const y = call.target;
      if (y === from || via.has(y)) continue;
      via.set(y, { parent: x, call });
      if (y === to) return chainTo(via, from, to);
      queue.push(y);
    }
  }
  return null;
}

function chainTo(
  via: ReadonlyMap<number, { readonly parent: number; readonly call: FlowCall }>,
  from: number,
  to: number,
): FlowCall[] {
  const out: FlowCall[] = [];
  for (let y = to; y !== from; ) {
    const link = via.get(y);
    if (link === undefined) break;
    out.push(link.call);
    y = link.parent;
  }
  return out.reverse();
}
