// Steps 1, 3 and 4 of the layout (graph-layout.ts): ranks, the order inside each rank, and x.
import type { DrawnEdge, Item } from "./graph-items";
import { METRICS } from "./graph-metrics";

/** Longest-path ranks over `edges` (from → to); an edge that closes a cycle is ignored. */
export function assignRanks(count: number, edges: readonly (readonly [number, number])[]): number[] {
  const out: number[][] = Array.from({ length: count }, () => []);
  for (const [a, b] of edges) out[a]?.push(b);
  // Iterative DFS in input order: edges to a node on the stack close a cycle.
  const state = new Array<number>(count).fill(0); // 0 new, 1 on stack, 2 done
  const postorder: number[] = [];
  const kept: number[][] = Array.from({ length: count }, () => []);
  for (let root = 0; root < count; root++) {
    if (state[root] !== 0) continue;
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top === undefined) break;
      const [v, i] = top;
      const next = out[v]?.[i];
      if (next === undefined) {
        state[v] = 2;
        postorder.push(v);
        stack.pop();
        continue;
      }
      top[1] = i + 1;
      if (state[next] === 1) continue; // closes a cycle
      kept[v]?.push(next);
      if (state[next] === 0) {
        state[next] = 1;
        stack.push([next, 0]);
      }
    }
  }
  const rank = new Array<number>(count).fill(0);
  for (let k = postorder.length - 1; k >= 0; k--) {
    const v = postorder[k] ?? 0;
    for (const w of kept[v] ?? []) rank[w] = Math.max(rank[w] ?? 0, (rank[v] ?? 0) + 1);
  }
  return rank;
}

/** Nodes in input order; a dummy just after its edge's source, long edges outside shorter ones. */
export function initialOrder(ranks: Item[][], drawn: readonly DrawnEdge[]): void {
  const key = (it: Item): [number, number] => {
    if (it.node >= 0) return [it.node, 0];
    const e = drawn[it.edge];
    return [(e?.from ?? 0) + 0.5, -(e?.to ?? 0)];
  };
  for (const row of ranks) {
    row.sort((a, b) => {
      const [a0, a1] = key(a);
      const [b0, b1] = key(b);
      return a0 - b0 || a1 - b1;
    });
    row.forEach((it, i) => {
      it.order = i;
    });
  }
}

function crossings(ranks: readonly Item[][]): number {
  let total = 0;
  for (let r = 0; r + 1 < ranks.length; r++) {
    const segs: [number, number][] = [];
    for (const it of ranks[r] ?? []) {
      for (const l of it.down) if (l.drawn && l.item.rank === r + 1) segs.push([it.order, l.item.order]);
    }
    for (let i = 0; i < segs.length; i++) {
      const [a0, a1] = segs[i] ?? [0, 0];
      for (let j = i + 1; j < segs.length; j++) {
        const [b0, b1] = segs[j] ?? [0, 0];
        if ((a0 - b0) * (a1 - b1) < 0) total++;
      }
    }
  }
  return total;
}

export function minimiseCrossings(ranks: Item[][]): void {
  let best = ranks.map((row) => [...row]);
  let bestCount = crossings(ranks);
  for (let pass = 0; pass < 8 && bestCount > 0; pass++) {
    const down = pass % 2 === 0;
    const order = down
      ? ranks.map((_, r) => r).slice(1)
      : ranks
          .map((_, r) => r)
          .reverse()
          .slice(1);
    for (const r of order) {
      const row = ranks[r];
      if (row === undefined) continue;
      const bary = new Map<Item, number>();
      for (const it of row) {
        const links = (down ? it.up : it.down).filter((l) => l.item.rank === (down ? r - 1 : r + 1));
        const w = links.reduce((s, l) => s + l.weight, 0);
        bary.set(it, w > 0 ? links.reduce((s, l) => s + l.weight * l.item.order, 0) / w : it.order);
      }
      row.sort((a, b) => (bary.get(a) ?? 0) - (bary.get(b) ?? 0) || a.order - b.order);
      row.forEach((it, i) => {
        it.order = i;
      });
    }
    const c = crossings(ranks);
    if (c < bestCount) {
      bestCount = c;
      best = ranks.map((row) => [...row]);
    }
  }
  best.forEach((row, r) => {
    ranks[r] = row;
    row.forEach((it, i) => {
      it.order = i;
    });
  });
}

function gapBetween(a: Item, b: Item): number {
  return (a.width + b.width) / 2 + (a.node >= 0 && b.node >= 0 ? METRICS.nodeGap : METRICS.dummyGap);
}

export function assignX(ranks: Item[][]): void {
  for (const row of ranks) {
    let x = 0;
    row.forEach((it, i) => {
      const prev = row[i - 1];
      x = prev === undefined ? 0 : x + gapBetween(prev, it);
      it.x = x;
    });
    const span = x;
    for (const it of row) it.x -= span / 2;
  }
  for (let pass = 0; pass < 24; pass++) {
    const dir = pass % 3; // 0: from above, 1: from below, 2: both
    const rows = dir === 1 ? [...ranks].reverse() : ranks;
    for (const row of rows) {
      const desired: number[] = [];
      const weights: number[] = [];
      for (const it of row) {
        const links = dir === 0 ? it.up : dir === 1 ? it.down : [...it.up, ...it.down];
        let sum = 0;
        let w = 0;
        for (const l of links) {
          // A node follows the nodes it is joined to (long edges make room for it); a dummy follows
          // the rest of its edge, and the first and last dummies feel their node only a little.
          if (it.node >= 0 && l.item.node < 0) continue;
          const lw = it.node < 0 && l.item.node >= 0 ? l.weight * 0.25 : l.weight;
          sum += lw * l.item.x;
          w += lw;
        }
        desired.push(w > 0 ? sum / w : it.x);
        weights.push(it.node >= 0 ? (w > 0 ? 12 : 0.1) : Math.min(1, w) || 0.01);
      }
      placeInOrder(row, desired, weights);
    }
  }
}

/**
 * Puts `row` as close to `desired` as the order and the minimum gaps allow (least squares, weighted):
 * with offsets o_i (the cumulative minimum gaps), x_i = y_i + o_i where y is the isotonic
 * (non-decreasing) regression of desired_i − o_i, computed by pool-adjacent-violators.
 */
function placeInOrder(row: Item[], desired: readonly number[], weights: readonly number[]): void {
  const offsets: number[] = [];
  let o = 0;
  row.forEach((it, i) => {
    const prev = row[i - 1];
    if (prev !== undefined) o += gapBetween(prev, it);
    offsets.push(o);
  });
  const blocks: { value: number; weight: number; size: number }[] = [];
  row.forEach((_, i) => {
    let block = { value: (desired[i] ?? 0) - (offsets[i] ?? 0), weight: weights[i] ?? 1, size: 1 };
    for (;;) {
      const last = blocks[blocks.length - 1];
      if (last === undefined || last.value <= block.value) break;
      blocks.pop();
      const weight = last.weight + block.weight;
      block = {
        value: (last.value * last.weight + block.value * block.weight) / weight,
        weight,
        size: last.size + block.size,
      };
    }
    blocks.push(block);
  });
  let i = 0;
  for (const b of blocks) {
    for (let k = 0; k < b.size; k++, i++) {
      const it = row[i];
      if (it !== undefined) it.x = b.value + (offsets[i] ?? 0);
    }
  }
}
