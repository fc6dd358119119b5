// The page's pure graph layout (ui/page/graph-layout.ts): every node placed, no overlaps,
// dependencies downward, loops routed around the side, END below everything, and a property
// test over random graphs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GraphEdgeView, GraphNodeView } from "../../../ui/api-types";
import {
  END_ID,
  type GraphLayout,
  type LayoutInput,
  type LayoutNode,
  layoutGraph,
} from "../../../ui/page/graph-layout";

type Node = Pick<GraphNodeView, "id" | "kind" | "target">;

const fn = (id: string, target = `${id}_fn`): Node => ({ id, kind: "function", target });
const gate = (id: string): Node => ({ id, kind: "gate", target: "sign_off" });
const dep = (from: string, to: string): GraphEdgeView => ({ from, to, route: null });
const order = (from: string, to: string): GraphEdgeView => ({ from, to, route: null, order: true });
const route = (from: string, to: string | null, r: NonNullable<GraphEdgeView["route"]>): GraphEdgeView => ({
  from,
  to,
  route: r,
});

/** The graph of examples/code-review-gate.stratum.yaml as checker/flow-graphs.ts builds it. */
const codeReview: LayoutInput = {
  nodes: [
    fn("write", "write_change"),
    fn("review", "ai_review"),
    gate("security"),
    gate("approve"),
    fn("merge", "merge_branch"),
    { id: "announce", kind: "inline", target: null },
  ],
  edges: [
    dep("write", "review"),
    dep("review", "security"),
    dep("write", "security"),
    route("security", "approve", "approve"),
    route("security", "write", "revise"),
    route("security", null, "kill"),
    route("approve", "merge", "approve"),
    route("approve", "write", "revise"),
    route("approve", "announce", "kill"),
    dep("write", "merge"),
    dep("write", "announce"),
    order("security", "approve"),
    order("approve", "merge"),
    order("merge", "announce"),
  ],
};

function node(layout: GraphLayout, id: string): LayoutNode {
  const n = id === END_ID ? layout.end : layout.nodes.find((x) => x.id === id);
  if (n === undefined || n === null) throw new Error(`no node ${id}`);
  return n;
}

function allBoxes(layout: GraphLayout): LayoutNode[] {
  return layout.end === null ? [...layout.nodes] : [...layout.nodes, layout.end];
}

/** Two route labels that overlap each other or a node (by text and id), or null. */
function crowdedLabel(layout: GraphLayout): [string, string] | null {
  const labels = layout.edges.flatMap((e) => (e.label === null ? [] : [e.label]));
  const boxOf = (l: (typeof labels)[number]) => ({
    left: l.x - l.width / 2,
    right: l.x + l.width / 2,
    top: l.y - l.height / 2,
    bottom: l.y + l.height / 2,
  });
  const hit = (a: ReturnType<typeof boxOf>, b: ReturnType<typeof boxOf>) =>
    a.left < b.right - 1e-6 && b.left < a.right - 1e-6 && a.top < b.bottom - 1e-6 && b.top < a.bottom - 1e-6;
  for (let i = 0; i < labels.length; i++) {
    const a = boxOf(labels[i]!);
    for (let j = i + 1; j < labels.length; j++)
      if (hit(a, boxOf(labels[j]!))) return [labels[i]!.text, labels[j]!.text];
    for (const n of allBoxes(layout)) {
      if (hit(a, { left: n.x, right: n.x + n.width, top: n.y, bottom: n.y + n.height }))
        return [labels[i]!.text, n.id];
    }
  }
  return null;
}

function overlapping(layout: GraphLayout): [string, string] | null {
  const boxes = allBoxes(layout);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a === undefined || b === undefined) continue;
      const eps = 1e-6;
      if (
        a.x < b.x + b.width - eps &&
        b.x < a.x + a.width - eps &&
        a.y < b.y + b.height - eps &&
        b.y < a.y + a.height - eps
      ) {
        return [a.id, b.id];
      }
    }
  }
  return null;
}

function allFinite(layout: GraphLayout): boolean {
  const nums: number[] = [layout.width, layout.height];
  for (const b of allBoxes(layout)) nums.push(b.x, b.y, b.width, b.height);
  for (const e of layout.edges) {
    for (const p of e.points) nums.push(p.x, p.y);
    if (e.label !== null) nums.push(e.label.x, e.label.y, e.label.width, e.label.height);
  }
  return nums.every(Number.isFinite);
}

/** Does the segment a→b pass through the inside of box `n` (shrunk a little)? */
function segmentHitsBox(a: { x: number; y: number }, b: { x: number; y: number }, n: LayoutNode): boolean {
  const inset = 2;
  const left = n.x + inset;
  const right = n.x + n.width - inset;
  const top = n.y + inset;
  const bottom = n.y + n.height - inset;
  for (let t = 0; t <= 1; t += 0.05) {
    const x = a.x + (b.x - a.x) * t;
    const y = a.y + (b.y - a.y) * t;
    if (x > left && x < right && y > top && y < bottom) return true;
  }
  return false;
}

describe("layoutGraph", () => {
  const layout = layoutGraph(codeReview);

  it("gives every node a position inside the drawing", () => {
    expect(layout.nodes.map((n) => n.id)).toEqual(codeReview.nodes.map((n) => n.id));
    for (const n of allBoxes(layout)) {
      expect(n.x).toBeGreaterThanOrEqual(0);
      expect(n.y).toBeGreaterThanOrEqual(0);
      expect(n.x + n.width).toBeLessThanOrEqual(layout.width);
      expect(n.y + n.height).toBeLessThanOrEqual(layout.height);
      expect(n.width).toBeGreaterThan(0);
      expect(n.height).toBeGreaterThan(0);
    }
    expect(allFinite(layout)).toBe(true);
  });

  it("places no two nodes on top of each other", () => {
    expect(overlapping(layout)).toBeNull();
  });

  it("draws dependency edges downward, each point below the last", () => {
    const deps = layout.edges.filter((e) => e.kind === "dependency");
    expect(deps.length).toBe(5);
    for (const e of deps) {
      expect(e.back).toBe(false);
      expect(node(layout, e.to ?? END_ID).y).toBeGreaterThan(node(layout, e.from).y);
      for (let i = 1; i < e.points.length; i++) {
        expect(e.points[i]?.y).toBeGreaterThanOrEqual(e.points[i - 1]?.y ?? 0);
      }
    }
  });

  it("ranks steps in execution order along dependency and order edges", () => {
    const ranks = layout.nodes.map((n) => n.rank);
    expect(ranks).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("routes a revise edge back up around the right side of the drawing", () => {
    const revises = layout.edges.filter((e) => e.route === "revise");
    expect(revises).toHaveLength(2);
    const right = Math.max(...allBoxes(layout).map((n) => n.x + n.width));
    for (const e of revises) {
      expect(e.back).toBe(true);
      expect(e.shape).toBe("orthogonal");
      const from = node(layout, e.from);
      const to = node(layout, "write");
      const first = e.points[0];
      const last = e.points[e.points.length - 1];
      expect(first?.y).toBeGreaterThanOrEqual(from.y);
      expect(first?.y).toBeLessThanOrEqual(from.y + from.height);
      expect(last?.y).toBeGreaterThanOrEqual(to.y);
      expect(last?.y).toBeLessThanOrEqual(to.y + to.height);
      // Some point lies right of every box: the lane.
      expect(Math.max(...e.points.map((p) => p.x))).toBeGreaterThan(right);
      // Orthogonal segments only, and none through a box.
      for (let i = 1; i < e.points.length; i++) {
        const a = e.points[i - 1];
        const b = e.points[i];
        if (a === undefined || b === undefined) continue;
        expect(a.x === b.x || a.y === b.y).toBe(true);
        for (const n of allBoxes(layout)) expect(segmentHitsBox(a, b, n)).toBe(false);
      }
      expect(e.label?.text).toBe("revise");
    }
    // Two loops over overlapping ranks take different lanes.
    const laneX = revises.map((e) => Math.max(...e.points.map((p) => p.x)));
    expect(laneX[0]).not.toBe(laneX[1]);
  });

  it("puts END below every step when a route ends the flow", () => {
    const end = layout.end;
    expect(end).not.toBeNull();
    if (end === null) return;
    for (const n of layout.nodes) expect(end.y).toBeGreaterThan(n.y + n.height);
    const kill = layout.edges.find((e) => e.from === "security" && e.route === "kill");
    expect(kill?.to).toBeNull();
    const last = kill?.points[kill.points.length - 1];
    expect(last?.y).toBeCloseTo(end.y);
    expect(last?.x).toBeGreaterThanOrEqual(end.x);
    expect(last?.x).toBeLessThanOrEqual(end.x + end.width);
  });

  it("has no END without an edge to it", () => {
    const l = layoutGraph({ nodes: [fn("a"), fn("b")], edges: [dep("a", "b")] });
    expect(l.end).toBeNull();
    expect(l.edges).toHaveLength(1);
  });

  it("routes a long dependency around the steps it skips", () => {
    for (const e of layout.edges.filter((x) => !x.back)) {
      for (let i = 1; i < e.points.length; i++) {
        const a = e.points[i - 1];
        const b = e.points[i];
        if (a === undefined || b === undefined) continue;
        for (const n of allBoxes(layout)) {
          if (n.id === e.from || n.id === (e.to ?? END_ID)) continue;
          expect(segmentHitsBox(a, b, n), `${e.from}→${e.to} crosses ${n.id}`).toBe(false);
        }
      }
    }
  });

  it("keeps the execution chain in one straight column", () => {
    const xs = ["write", "review", "security", "approve"].map((id) => {
      const n = node(layout, id);
      return n.x + n.width / 2;
    });
    for (const x of xs) expect(Math.abs(x - (xs[0] ?? 0))).toBeLessThan(2);
  });

  it("puts independent steps of one rank side by side", () => {
    const l = layoutGraph({
      nodes: [fn("a"), fn("b"), fn("c"), fn("d")],
      edges: [dep("a", "b"), dep("a", "c"), dep("b", "d"), dep("c", "d")],
    });
    expect(node(l, "b").rank).toBe(1);
    expect(node(l, "c").rank).toBe(1);
    expect(node(l, "b").y).toBe(node(l, "c").y);
    expect(overlapping(l)).toBeNull();
  });

  it("survives cycles, self-loops, unknown targets and duplicate ids", () => {
    const l = layoutGraph({
      nodes: [fn("a"), fn("b"), fn("a"), fn("c")],
      edges: [
        dep("a", "b"),
        dep("b", "a"),
        route("c", "c", "on_fail"),
        route("b", "nowhere", "next"),
        dep("ghost", "a"),
      ],
    });
    expect(l.nodes.map((n) => n.id)).toEqual(["a", "b", "c"]);
    expect(allFinite(l)).toBe(true);
    expect(overlapping(l)).toBeNull();
    const self = l.edges.find((e) => e.from === "c" && e.to === "c");
    expect(self?.back).toBe(true);
    expect(self?.points.length).toBeGreaterThanOrEqual(4);
  });

  it("lays out an empty graph", () => {
    const l = layoutGraph({ nodes: [], edges: [] });
    expect(l.nodes).toEqual([]);
    expect(l.end).toBeNull();
    expect(Number.isFinite(l.width) && Number.isFinite(l.height)).toBe(true);
  });
});

/** Random graphs as specs make them: dependencies to earlier steps, order edges, routes anywhere. */
const graphs = fc.integer({ min: 1, max: 30 }).chain((n) => {
  const ids = Array.from({ length: n }, (_, i) => `s${i}`);
  const kinds = fc.constantFrom<GraphNodeView["kind"]>("function", "gate", "inline", "flow");
  const pair = fc.tuple(fc.nat(n - 1), fc.nat(n - 1));
  return fc
    .record({
      kinds: fc.array(kinds, { minLength: n, maxLength: n }),
      longIds: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      deps: fc.array(pair, { maxLength: 2 * n }),
      routes: fc.array(
        fc.tuple(
          fc.nat(n - 1),
          fc.option(fc.nat(n - 1)),
          fc.constantFrom<NonNullable<GraphEdgeView["route"]>>(
            "next",
            "on_fail",
            "approve",
            "revise",
            "kill",
          ),
        ),
        { maxLength: 2 * n },
      ),
      withOrder: fc.boolean(),
    })
    .map(({ kinds, longIds, deps, routes, withOrder }): LayoutInput => {
      const name = (i: number): string => (longIds[i] ? `${ids[i]}_${"x".repeat(40)}` : (ids[i] ?? ""));
      const nodes = ids.map((_, i) => ({ id: name(i), kind: kinds[i] ?? "function", target: "t" }));
      const edges: GraphEdgeView[] = [];
      for (const [a, b] of deps) if (a !== b) edges.push(dep(name(Math.min(a, b)), name(Math.max(a, b))));
      for (const [a, b, r] of routes) edges.push(route(name(a), b === null ? null : name(b), r));
      if (withOrder) for (let i = 1; i < n; i++) edges.push(order(name(i - 1), name(i)));
      return { nodes, edges };
    });
});

describe("layoutGraph on random graphs", () => {
  it("never throws, keeps every coordinate finite and never overlaps two nodes or a label", () => {
    fc.assert(
      fc.property(graphs, (g) => {
        const l = layoutGraph(g);
        expect(l.nodes).toHaveLength(g.nodes.length);
        expect(allFinite(l)).toBe(true);
        expect(overlapping(l)).toBeNull();
        expect(crowdedLabel(l)).toBeNull();
        for (const e of l.edges) {
          if (e.kind === "dependency" && !e.back) {
            expect(node(l, e.to ?? END_ID).rank).toBeGreaterThan(node(l, e.from).rank);
          }
        }
        for (const n of allBoxes(l)) {
          expect(n.x).toBeGreaterThanOrEqual(0);
          expect(n.x + n.width).toBeLessThanOrEqual(l.width);
        }
      }),
      { numRuns: 300 },
    );
  });
});
