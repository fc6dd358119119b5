// The stable topological order of docs/reference/runtime.md §2: Kahn's algorithm where, among the steps whose
// dependencies are all placed, the one declared first is placed next.
import { IndexHeap } from "./heap";

/**
 * `deps[i]` lists the distinct nodes that node `i` depends on. Returns the node indices in
 * execution order, or null when a cycle leaves some node unplaced.
 */
export function stableOrder(deps: readonly (readonly number[])[]): number[] | null {
  const n = deps.length;
  const waiting = new Int32Array(n);
  const dependents: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    const list = deps[i] ?? [];
    waiting[i] = list.length;
    for (const d of list) (dependents[d] as number[]).push(i);
  }
  const ready = new IndexHeap();
  for (let i = 0; i < n; i++) if (waiting[i] === 0) ready.push(i);
  const order: number[] = [];
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    order.push(next);
    for (const s of dependents[next] as number[]) {
      waiting[s] = (waiting[s] as number) - 1;
      if (waiting[s] === 0) ready.push(s);
    }
  }
  return order.length === n ? order : null;
}
