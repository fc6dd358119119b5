// A layered, top-down layout of a flow graph (pure: no DOM, so the tests run it in Node).
//
// 1. Ranks: the longest path over dependency and order edges (a cycle among them is broken at the
//    edge that closes it), so every step sits below everything it depends on and below the step
//    before it; END, when some edge ends the flow, gets the rank below all steps.
// 2. Edges that go down more than one rank get a dummy point per rank they cross, so they are
//    routed between the nodes of those ranks instead of through them.
// 3. Order inside each rank: barycenter sweeps, keeping the order with the fewest crossings.
// 4. x: repeated sweeps move every node towards its neighbours and every dummy in line with the
//    rest of its edge, then a weighted isotonic regression puts each rank back in order with its
//    minimum gaps (so no two boxes ever overlap).
// 5. Edges that go up or sideways (routes back to an earlier step: revise loops, retries) are
//    routed around the right side of the drawing, each in its own lane, nested by length.
import type { GraphEdgeView, GraphNodeView } from "../api-types";

export interface Point {
  readonly x: number;
  readonly y: number;
}

export type LayoutNodeKind = GraphNodeView["kind"] | "end";

export interface LayoutNode {
  /** The step id; END_ID for the flow's end. */
  readonly id: string;
  readonly kind: LayoutNodeKind;
  readonly rank: number;
  /** Top-left corner. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface LayoutLabel {
  readonly text: string;
  /** Centre of the label box. */
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface LayoutEdge {
  readonly from: string;
  /** null: the flow's end. */
  readonly to: string | null;
  readonly route: GraphEdgeView["route"];
  /** A dependency (route null) or a routing edge. Order edges are layout-only and not returned. */
  readonly kind: "dependency" | "route";
  /** Goes up or sideways: routed around the right side in a lane of its own. */
  readonly back: boolean;
  /** "curve": vertical segments joined by S-curves; "orthogonal": straight horizontal/vertical segments. */
  readonly shape: "curve" | "orthogonal";
  readonly points: readonly Point[];
  readonly label: LayoutLabel | null;
}

export interface GraphLayout {
  /** The steps, in input order (duplicates of an id are dropped). */
  readonly nodes: readonly LayoutNode[];
  /** The END node, when some edge ends the flow. */
  readonly end: LayoutNode | null;
  readonly edges: readonly LayoutEdge[];
  readonly width: number;
  readonly height: number;
}

export interface LayoutInput {
  readonly nodes: readonly Pick<GraphNodeView, "id" | "kind" | "target">[];
  readonly edges: readonly GraphEdgeView[];
}

export const END_ID = "\u0000end";

/** The sizes the drawing uses; exported so the SVG renderer agrees with the layout. */
export const METRICS = {
  nodeHeight: 50,
  endWidth: 64,
  endHeight: 30,
  minNodeWidth: 128,
  maxNodeWidth: 232,
  nodePadding: 14,
  gatePadding: 18,
  titleFont: 13,
  subtitleFont: 11,
  labelFont: 11,
  labelHeight: 17,
  rankGap: 60,
  nodeGap: 36,
  dummyGap: 16,
  margin: 24,
  laneMargin: 32,
  laneGap: 16,
  portSpacing: 14,
} as const;

// --- text metrics (an estimate: the page uses the system sans-serif font) -------------------------

/** Approximate width of `text` in px at `fontSize` (average sans-serif glyph ≈ 0.6 em). */
export function textWidth(text: string, fontSize: number, bold = false): number {
  return [...text].length * fontSize * (bold ? 0.64 : 0.58);
}

/** `text` cut to fit `maxWidth`, with an ellipsis when cut. */
export function fitText(text: string, maxWidth: number, fontSize: number, bold = false): string {
  if (textWidth(text, fontSize, bold) <= maxWidth) return text;
  const chars = [...text];
  const keep = Math.max(1, Math.floor(maxWidth / (fontSize * (bold ? 0.64 : 0.58))) - 1);
  return `${chars.slice(0, keep).join("")}…`;
}

/** The second line of a node: what it runs. */
export function nodeSubtitle(node: Pick<GraphNodeView, "kind" | "target">): string {
  if (node.kind === "inline") return "inline step";
  if (node.kind === "function") return node.target ?? "function";
  return node.target === null ? node.kind : `${node.kind} · ${node.target}`;
}

export function nodeTextWidth(node: Pick<GraphNodeView, "id" | "kind" | "target">): number {
  const padding =
    2 * (node.kind === "gate" ? METRICS.gatePadding + METRICS.nodePadding : METRICS.nodePadding);
  const content = Math.max(
    textWidth(node.id, METRICS.titleFont, true),
    textWidth(nodeSubtitle(node), METRICS.subtitleFont),
  );
  return Math.min(METRICS.maxNodeWidth, Math.max(METRICS.minNodeWidth, Math.ceil(content + padding)));
}

// --- the layout ---------------------------------------------------------------------------------

interface Item {
  /** Node index (END is the last), or -1 for a dummy. */
  readonly node: number;
  /** The drawn edge a dummy belongs to; -1 for a node. */
  readonly edge: number;
  readonly rank: number;
  readonly width: number;
  x: number;
  order: number;
  readonly up: Link[];
  readonly down: Link[];
}

interface Link {
  readonly item: Item;
  readonly weight: number;
  /** Counted for crossings (drawn); order edges only guide the layout. */
  readonly drawn: boolean;
}

interface DrawnEdge {
  readonly from: number;
  readonly to: number;
  readonly source: GraphEdgeView;
  back: boolean;
  /** Source item, dummies, target item (forward edges only). */
  chain: Item[];
}

export function layoutGraph(input: LayoutInput): GraphLayout {
  const M = METRICS;
  // Nodes: unique ids, input order.
  const steps: Pick<GraphNodeView, "id" | "kind" | "target">[] = [];
  const index = new Map<string, number>();
  for (const n of input.nodes) {
    if (index.has(n.id)) continue;
    index.set(n.id, steps.length);
    steps.push(n);
  }
  const hasEnd = input.edges.some((e) => e.to === null && index.has(e.from));
  const count = steps.length + (hasEnd ? 1 : 0);
  const endIndex = hasEnd ? steps.length : -1;
  const widths = steps.map(nodeTextWidth);
  const heights = steps.map((): number => M.nodeHeight);
  if (hasEnd) {
    widths.push(M.endWidth);
    heights.push(M.endHeight);
  }

  // Edges between known nodes.
  const layering: [number, number][] = [];
  const drawn: DrawnEdge[] = [];
  for (const e of input.edges) {
    const from = index.get(e.from);
    const to = e.to === null ? endIndex : index.get(e.to);
    if (from === undefined || to === undefined || to < 0) continue;
    if (e.order === true || e.route === null) {
      if (from !== to && to !== endIndex) layering.push([from, to]);
    }
    if (e.order !== true) drawn.push({ from, to, source: e, back: false, chain: [] });
  }

  const rank = assignRanks(steps.length, layering);
  if (hasEnd) rank.push(steps.length === 0 ? 0 : Math.max(...rank) + 1);
  const rankCount = count === 0 ? 0 : Math.max(...rank) + 1;

  // Items per rank: nodes, then dummies of the forward edges that cross a rank.
  const ranks: Item[][] = Array.from({ length: rankCount }, () => []);
  const nodeItems: Item[] = [];
  for (let i = 0; i < count; i++) {
    const item = newItem(i, -1, rank[i] ?? 0, widths[i] ?? 0);
    nodeItems.push(item);
    ranks[item.rank]?.push(item);
  }
  drawn.forEach((e, k) => {
    const r0 = rank[e.from] ?? 0;
    const r1 = rank[e.to] ?? 0;
    const source = nodeItems[e.from];
    const target = nodeItems[e.to];
    if (source === undefined || target === undefined) return;
    if (r1 <= r0) {
      e.back = true;
      return;
    }
    const chain: Item[] = [source];
    for (let r = r0 + 1; r < r1; r++) {
      const dummy = newItem(-1, k, r, 0);
      ranks[r]?.push(dummy);
      chain.push(dummy);
    }
    chain.push(target);
    for (let c = 1; c < chain.length; c++) link(chain[c - 1], chain[c], true);
    e.chain = chain;
  });
  // Order edges of one rank's span keep the execution order readable (invisible, weaker).
  for (const [from, to] of layering) {
    if ((rank[to] ?? 0) === (rank[from] ?? 0) + 1) link(nodeItems[from], nodeItems[to], false);
  }

  // END sits under the last step of the bottom rank (invisibly joined, like an order edge).
  if (hasEnd) {
    const endRank = rank[endIndex] ?? 0;
    const last = nodeItems.findLast((it) => it.node !== endIndex && it.rank === endRank - 1);
    link(last, nodeItems[endIndex], false);
  }
  initialOrder(ranks, drawn);
  minimiseCrossings(ranks);
  assignX(ranks);

  // Normalise x so the leftmost box starts at the margin.
  let minLeft = Number.POSITIVE_INFINITY;
  for (const row of ranks) for (const it of row) minLeft = Math.min(minLeft, it.x - it.width / 2);
  if (!Number.isFinite(minLeft)) minLeft = 0;
  const shift = M.margin - minLeft;
  for (const row of ranks) for (const it of row) it.x += shift;

  // y: one band per rank, as tall as its tallest box.
  const bandTop: number[] = [];
  const bandHeight: number[] = [];
  let y = M.margin + M.laneGap;
  for (let r = 0; r < rankCount; r++) {
    const h = Math.max(0, ...(ranks[r] ?? []).map((it) => (it.node >= 0 ? (heights[it.node] ?? 0) : 0)));
    bandTop.push(y);
    bandHeight.push(h);
    y += h + M.rankGap;
  }
  const bandBottom = (r: number): number => (bandTop[r] ?? 0) + (bandHeight[r] ?? 0);

  const boxes: LayoutNode[] = nodeItems.map((it) => {
    const h = heights[it.node] ?? 0;
    const top = (bandTop[it.rank] ?? 0) + ((bandHeight[it.rank] ?? 0) - h) / 2;
    return {
      id: it.node === endIndex ? END_ID : (steps[it.node]?.id ?? ""),
      kind: it.node === endIndex ? "end" : (steps[it.node]?.kind ?? "function"),
      rank: it.rank,
      x: it.x - it.width / 2,
      y: top,
      width: it.width,
      height: h,
    };
  });

  const { points: edgePoints, gapMids } = routeForward(drawn, boxes, bandTop, bandBottom);
  const maxRight = Math.max(M.margin, ...boxes.map((b) => b.x + b.width), ...ranks.flat().map((it) => it.x));
  const backPoints = routeBack(drawn, boxes, ranks, bandTop, bandBottom, maxRight);

  const labels = placeLabels(drawn, edgePoints, gapMids, backPoints, boxes);
  const edges: LayoutEdge[] = drawn.map((e, k) => ({
    from: steps[e.from]?.id ?? "",
    to: e.to === endIndex ? null : (steps[e.to]?.id ?? ""),
    route: e.source.route,
    kind: e.source.route === null ? "dependency" : "route",
    back: e.back,
    shape: e.back ? "orthogonal" : "curve",
    points: (e.back ? backPoints.get(k) : edgePoints.get(k)) ?? [],
    label: labels[k] ?? null,
  }));

  let width: number = M.margin;
  let height: number = M.margin;
  for (const b of boxes) {
    width = Math.max(width, b.x + b.width);
    height = Math.max(height, b.y + b.height);
  }
  for (const e of edges) {
    for (const p of e.points) {
      width = Math.max(width, p.x);
      height = Math.max(height, p.y);
    }
    if (e.label !== null) {
      width = Math.max(width, e.label.x + e.label.width / 2);
      height = Math.max(height, e.label.y + e.label.height / 2);
    }
  }
  return {
    nodes: boxes.slice(0, steps.length),
    end: hasEnd ? (boxes[endIndex] ?? null) : null,
    edges,
    width: Math.ceil(width + M.margin),
    height: Math.ceil(height + M.margin),
  };
}

function newItem(node: number, edge: number, rank: number, width: number): Item {
  return { node, edge, rank, width, x: 0, order: 0, up: [], down: [] };
}

function link(upper: Item | undefined, lower: Item | undefined, drawn: boolean): void {
  if (upper === undefined || lower === undefined) return;
  const dummies = (upper.node < 0 ? 1 : 0) + (lower.node < 0 ? 1 : 0);
  const weight = drawn ? ([1, 0.1, 2][dummies] ?? 1) : 0.5;
  upper.down.push({ item: lower, weight, drawn });
  lower.up.push({ item: upper, weight, drawn });
}

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
function initialOrder(ranks: Item[][], drawn: readonly DrawnEdge[]): void {
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

function minimiseCrossings(ranks: Item[][]): void {
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

function assignX(ranks: Item[][]): void {
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

function spread(count: number, index: number, center: number, room: number): number {
  if (count <= 1) return center;
  const step = Math.min(METRICS.portSpacing, room / (count - 1));
  return center + (index - (count - 1) / 2) * step;
}

function routeForward(
  drawn: readonly DrawnEdge[],
  boxes: readonly LayoutNode[],
  bandTop: readonly number[],
  bandBottom: (r: number) => number,
): { points: Map<number, Point[]>; gapMids: Map<number, Point[]> } {
  // Ports: the edges leaving a node's bottom (entering its top) side by side, ordered by where
  // they go (come from), so they do not cross at the node.
  const outPorts = new Map<number, number[]>();
  const inPorts = new Map<number, number[]>();
  drawn.forEach((e, k) => {
    if (e.back) return;
    if (!outPorts.has(e.from)) outPorts.set(e.from, []);
    if (!inPorts.has(e.to)) inPorts.set(e.to, []);
    outPorts.get(e.from)?.push(k);
    inPorts.get(e.to)?.push(k);
  });
  const nextX = (k: number): number => drawn[k]?.chain[1]?.x ?? 0;
  const prevX = (k: number): number => {
    const chain = drawn[k]?.chain ?? [];
    return chain[chain.length - 2]?.x ?? 0;
  };
  const portX = new Map<string, number>();
  const assign = (ports: Map<number, number[]>, side: "out" | "in", at: (k: number) => number): void => {
    for (const [node, ks] of ports) {
      const box = boxes[node];
      if (box === undefined) continue;
      ks.sort((a, b) => at(a) - at(b) || a - b);
      ks.forEach((k, i) => {
        portX.set(
          `${side}${k}`,
          spread(ks.length, i, box.x + box.width / 2, box.width - 2 * METRICS.nodePadding),
        );
      });
    }
  };
  assign(outPorts, "out", nextX);
  assign(inPorts, "in", prevX);

  const result = new Map<number, Point[]>();
  const gapMids = new Map<number, Point[]>();
  drawn.forEach((e, k) => {
    if (e.back) return;
    const s = boxes[e.from];
    const t = boxes[e.to];
    if (s === undefined || t === undefined) return;
    const pts: Point[] = [];
    const sx = portX.get(`out${k}`) ?? s.x + s.width / 2;
    const tx = portX.get(`in${k}`) ?? t.x + t.width / 2;
    pts.push({ x: sx, y: s.y + s.height }, { x: sx, y: bandBottom(s.rank) });
    for (const d of e.chain.slice(1, -1)) {
      pts.push({ x: d.x, y: bandTop[d.rank] ?? 0 }, { x: d.x, y: bandBottom(d.rank) });
    }
    pts.push({ x: tx, y: bandTop[t.rank] ?? 0 }, { x: tx, y: t.y });
    // Points 1→2, 3→4, … cross the gaps between ranks.
    const mids: Point[] = [];
    for (let i = 1; i + 1 < pts.length; i += 2) {
      const a = pts[i];
      const b = pts[i + 1];
      if (a !== undefined && b !== undefined) mids.push({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
    }
    const near = mids.length > 1 ? [mids[0], mids[mids.length - 1], ...mids.slice(1, -1)] : mids;
    gapMids.set(
      k,
      near.filter((p): p is Point => p !== undefined),
    );
    result.set(k, dedupe(pts));
  });
  return { points: result, gapMids };
}

function dedupe(pts: readonly Point[]): Point[] {
  const out: Point[] = [];
  for (const p of pts) {
    const last = out[out.length - 1];
    if (last === undefined || Math.abs(last.x - p.x) > 1e-6 || Math.abs(last.y - p.y) > 1e-6) out.push(p);
  }
  return out;
}

function routeBack(
  drawn: readonly DrawnEdge[],
  boxes: readonly LayoutNode[],
  ranks: readonly Item[][],
  bandTop: readonly number[],
  bandBottom: (r: number) => number,
  maxRight: number,
): Map<number, Point[]> {
  const M = METRICS;
  const back = drawn.map((e, k) => ({ e, k })).filter(({ e }) => e.back);
  // Lanes: shorter loops inside longer ones; loops whose rank spans do not overlap share a lane.
  const span = (e: DrawnEdge): [number, number] => {
    const a = boxes[e.to]?.rank ?? 0;
    const b = boxes[e.from]?.rank ?? 0;
    return [Math.min(a, b), Math.max(a, b)];
  };
  const sorted = [...back].sort((p, q) => {
    const [p0, p1] = span(p.e);
    const [q0, q1] = span(q.e);
    return p1 - p0 - (q1 - q0) || p.k - q.k;
  });
  const lanes: [number, number][][] = [];
  const laneOf = new Map<number, number>();
  for (const { e, k } of sorted) {
    const [a, b] = span(e);
    let lane = lanes.findIndex((used) => used.every(([c, d]) => b < c || d < a));
    if (lane < 0) {
      lane = lanes.length;
      lanes.push([]);
    }
    lanes[lane]?.push([a, b]);
    laneOf.set(k, lane);
  }
  const laneX = (k: number): number => maxRight + M.laneMargin + (laneOf.get(k) ?? 0) * M.laneGap;

  // A node can take a loop on its right side when no other box of its rank is to its right.
  const rightmost = (node: number): boolean => {
    const box = boxes[node];
    if (box === undefined) return false;
    return (ranks[box.rank] ?? []).every((it) => it.node < 0 || it.node === node || it.x < box.x);
  };
  // Right-side ports: arrivals above departures; outer lanes higher for arrivals, lower for departures.
  const sidePorts = new Map<number, { k: number; arrive: boolean }[]>();
  for (const { e, k } of back) {
    if (rightmost(e.from)) {
      if (!sidePorts.has(e.from)) sidePorts.set(e.from, []);
      sidePorts.get(e.from)?.push({ k, arrive: false });
    }
    if (rightmost(e.to)) {
      if (!sidePorts.has(e.to)) sidePorts.set(e.to, []);
      sidePorts.get(e.to)?.push({ k, arrive: true });
    }
  }
  const portY = new Map<string, number>();
  for (const [node, ports] of sidePorts) {
    const box = boxes[node];
    if (box === undefined) continue;
    const lane = (k: number): number => laneOf.get(k) ?? 0;
    ports.sort((p, q) => {
      if (p.arrive !== q.arrive) return p.arrive ? -1 : 1;
      return p.arrive ? lane(q.k) - lane(p.k) : lane(p.k) - lane(q.k);
    });
    const room = box.height - 12;
    ports.forEach((p, i) => {
      portY.set(`${p.arrive ? "in" : "out"}${p.k}`, spread(ports.length, i, box.y + box.height / 2, room));
    });
  }
  // Gap routes (when a box is in the way on the right): one horizontal track per loop and gap.
  const gapTracks = new Map<string, number>();
  const track = (gap: string): number => {
    const n = gapTracks.get(gap) ?? 0;
    gapTracks.set(gap, n + 1);
    return n;
  };

  const result = new Map<number, Point[]>();
  for (const { e, k } of back) {
    const s = boxes[e.from];
    const t = boxes[e.to];
    if (s === undefined || t === undefined) continue;
    const lx = laneX(k);
    const pts: Point[] = [];
    const outY = portY.get(`out${k}`);
    if (outY !== undefined) {
      pts.push({ x: s.x + s.width, y: outY }, { x: lx, y: outY });
    } else {
      const gy = bandBottom(s.rank) + 10 + 6 * track(`below${s.rank}`);
      const sx = s.x + s.width + Math.min(M.dummyGap, M.nodeGap) / 2;
      const sy = s.y + s.height / 2;
      pts.push({ x: s.x + s.width, y: sy }, { x: sx, y: sy }, { x: sx, y: gy }, { x: lx, y: gy });
    }
    const inY = portY.get(`in${k}`);
    if (inY !== undefined) {
      pts.push({ x: lx, y: inY }, { x: t.x + t.width, y: inY });
    } else {
      const gy = (bandTop[t.rank] ?? 0) - 10 - 6 * track(`above${t.rank}`);
      const tx = t.x + t.width + Math.min(M.dummyGap, M.nodeGap) / 2;
      const ty = t.y + t.height / 2;
      pts.push({ x: lx, y: gy }, { x: tx, y: gy }, { x: tx, y: ty }, { x: t.x + t.width, y: ty });
    }
    result.set(k, dedupe(pts));
  }
  return result;
}

interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** Route labels: the first spot along the edge that covers no box and no other label. */
function placeLabels(
  drawn: readonly DrawnEdge[],
  forward: ReadonlyMap<number, Point[]>,
  gapMids: ReadonlyMap<number, Point[]>,
  backward: ReadonlyMap<number, Point[]>,
  boxes: readonly LayoutNode[],
): (LayoutLabel | null)[] {
  const M = METRICS;
  const taken: Box[] = boxes.map((b) => ({
    left: b.x - 2,
    top: b.y - 2,
    right: b.x + b.width + 2,
    bottom: b.y + b.height + 2,
  }));
  return drawn.map((e, k) => {
    const text = e.source.route;
    if (text === null) return null;
    const width = Math.ceil(textWidth(text, M.labelFont) + 10);
    const height = M.labelHeight;
    const pts = (e.back ? backward.get(k) : forward.get(k)) ?? [];
    const candidates: Point[] = [];
    if (e.back) {
      // On the lane (the longest vertical segment), from its middle outwards.
      let best = -1;
      let bestLength = -1;
      for (let i = 0; i + 1 < pts.length; i++) {
        const a = pts[i];
        const b = pts[i + 1];
        if (a === undefined || b === undefined || Math.abs(a.x - b.x) > 1e-6) continue;
        const length = Math.abs(a.y - b.y);
        if (length > bestLength) {
          best = i;
          bestLength = length;
        }
      }
      const a = pts[best];
      const b = pts[best + 1];
      if (a !== undefined && b !== undefined) {
        for (const t of [0.5, 0.35, 0.65, 0.2, 0.8]) candidates.push({ x: a.x, y: a.y + (b.y - a.y) * t });
      }
    } else {
      // In the gaps between ranks (the middle of an S-curve is the middle of its ends), nearest
      // the source first, then beside the edge.
      const mids = gapMids.get(k) ?? [];
      for (const c of mids) candidates.push(c);
      for (const c of mids)
        candidates.push({ x: c.x + width / 2 + 4, y: c.y }, { x: c.x - width / 2 - 4, y: c.y });
    }
    const first = candidates[0] ?? pts[0] ?? { x: 0, y: 0 };
    const boxAt = (p: Point): Box => ({
      left: p.x - width / 2,
      top: p.y - height / 2,
      right: p.x + width / 2,
      bottom: p.y + height / 2,
    });
    const spot = candidates.find((p) => !taken.some((b) => overlaps(b, boxAt(p)))) ?? first;
    taken.push(boxAt(spot));
    return { text, x: spot.x, y: spot.y, width, height };
  });
}
