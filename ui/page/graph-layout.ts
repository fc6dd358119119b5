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
import type { GraphNodeView } from "../api-types";
import { type DrawnEdge, type Item, link, newItem } from "./graph-items";
import { METRICS, nodeTextWidth } from "./graph-metrics";
import { assignRanks, assignX, initialOrder, minimiseCrossings } from "./graph-order";
import { placeLabels, routeBack, routeForward } from "./graph-routes";
import type { GraphLayout, LayoutEdge, LayoutInput, LayoutNode } from "./graph-types";
import { END_ID } from "./graph-types";

export { fitText, METRICS, nodeSubtitle } from "./graph-metrics";
export * from "./graph-types";

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
