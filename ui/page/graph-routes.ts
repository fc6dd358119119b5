// Step 5 of the layout (graph-layout.ts) and the labels: the points of forward and backward
// edges, and where each route label goes.
import type { DrawnEdge, Item } from "./graph-items";
import { METRICS, textWidth } from "./graph-metrics";
import type { LayoutLabel, LayoutNode, Point } from "./graph-types";

function spread(count: number, index: number, center: number, room: number): number {
  if (count <= 1) return center;
  const step = Math.min(METRICS.portSpacing, room / (count - 1));
  return center + (index - (count - 1) / 2) * step;
}

export function routeForward(
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

export function routeBack(
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
export function placeLabels(
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
    const free = (p: Point): boolean => !taken.some((b) => overlaps(b, boxAt(p)));
    // Crowded (two routes into one gap, say): further right of the first spot until it is free,
    // which it is at the latest right of every box placed so far.
    let spot = candidates.find(free);
    for (let shift = 8; spot === undefined; shift += 8) {
      const p = { x: first.x + width / 2 + shift, y: first.y };
      if (free(p)) spot = p;
    }
    taken.push(boxAt(spot));
    return { text, x: spot.x, y: spot.y, width, height };
  });
}
