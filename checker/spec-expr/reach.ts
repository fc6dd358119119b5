// "Is `<id>` a transitive dependency of this step?" for SPEC-REF-MAY-NOT-HAVE-RUN, answered by a
// search over the flow graph's edges that stops at the target. Equivalent to
// `transitiveDependencies(step).has(id)`, but without materialising every step's dependency set:
// on long chains (each step reading the previous one) those sets cost quadratic time and memory.
import { buildFlowGraph } from "../graph/index";
import type { FlowDecl, StepDecl } from "../model/types";

interface Reachability {
  readonly index: ReadonlyMap<StepDecl, number>;
  readonly ids: readonly (string | null)[];
  readonly succ: readonly number[][];
  /** Visit marks, one generation per search (no clearing between searches). */
  readonly seen: Uint32Array;
  generation: number;
  readonly answers: Map<string, boolean>;
}

const cache = new WeakMap<FlowDecl, Reachability>();

function reachabilityOf(flow: FlowDecl): Reachability {
  let r = cache.get(flow);
  if (r === undefined) {
    const index = new Map<StepDecl, number>();
    flow.steps.forEach((s, i) => {
      index.set(s, i);
    });
    const succ: number[][] = flow.steps.map(() => []);
    for (const e of buildFlowGraph(flow).edges) {
      const from = index.get(e.from);
      const to = index.get(e.to);
      if (from !== undefined && to !== undefined) succ[from]?.push(to);
    }
    r = {
      index,
      ids: flow.steps.map((s) => s.id),
      succ,
      seen: new Uint32Array(flow.steps.length),
      generation: 0,
      answers: new Map(),
    };
    cache.set(flow, r);
  }
  return r;
}

/** True when a step with id `target` is reachable from `step` over one or more dependency edges. */
export function dependsOn(flow: FlowDecl, step: StepDecl, target: string): boolean {
  const r = reachabilityOf(flow);
  const start = r.index.get(step);
  if (start === undefined) return false;
  const key = `${start}\u0000${target}`;
  const known = r.answers.get(key);
  if (known !== undefined) return known;
  r.generation++;
  const stack = [...(r.succ[start] ?? [])];
  let found = false;
  while (stack.length > 0) {
    const v = stack.pop() as number;
    if (r.seen[v] === r.generation) continue;
    r.seen[v] = r.generation;
    if (r.ids[v] === target) {
      found = true;
      break;
    }
    for (const w of r.succ[v] ?? []) if (r.seen[w] !== r.generation) stack.push(w);
  }
  r.answers.set(key, found);
  return found;
}
