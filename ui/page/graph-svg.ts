// Draws a laid-out flow graph as SVG: boxes coloured by step state (CSS classes `state-<state>`),
// one shape per kind (gate: hexagon, inline: pill, sub-flow: double box), dependency edges solid,
// route edges dashed with their label, loops around the side, arrowheads from <marker>s.
import type { FlowPage, GraphNodeView } from "../api-types";
import { s } from "./dom";
import { STATE_LABEL } from "./format";
import {
  fitText,
  type LayoutEdge,
  type LayoutNode,
  layoutGraph,
  METRICS,
  nodeSubtitle,
  type Point,
} from "./graph-layout";

const r = (n: number): string => String(Math.round(n * 10) / 10);

function markerFor(e: LayoutEdge): string {
  if (e.kind === "dependency") return "arrow-dependency";
  if (e.route === "kill") return "arrow-kill";
  if (e.back) return "arrow-back";
  return "arrow-route";
}

function marker(id: string): SVGMarkerElement {
  return s(
    "marker",
    {
      id,
      viewBox: "0 0 10 10",
      refX: 9,
      refY: 5,
      markerWidth: 7,
      markerHeight: 7,
      orient: "auto-start-reverse",
    },
    s("path", { d: "M0,0 L10,5 L0,10 z", class: `arrowhead ${id}` }),
  );
}

/** Vertical segments straight; the others as S-curves leaving and entering vertically. */
function curvePath(pts: readonly Point[]): string {
  const first = pts[0];
  if (first === undefined) return "";
  let d = `M${r(first.x)},${r(first.y)}`;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1];
    const b = pts[i];
    if (a === undefined || b === undefined) continue;
    if (Math.abs(a.x - b.x) < 0.5 || Math.abs(a.y - b.y) < 0.5) d += ` L${r(b.x)},${r(b.y)}`;
    else {
      const my = (a.y + b.y) / 2;
      d += ` C${r(a.x)},${r(my)} ${r(b.x)},${r(my)} ${r(b.x)},${r(b.y)}`;
    }
  }
  return d;
}

/** Straight segments with rounded corners. */
function orthogonalPath(pts: readonly Point[]): string {
  const first = pts[0];
  if (first === undefined) return "";
  let d = `M${r(first.x)},${r(first.y)}`;
  for (let i = 1; i < pts.length; i++) {
    const prev = pts[i - 1];
    const cur = pts[i];
    const next = pts[i + 1];
    if (prev === undefined || cur === undefined) continue;
    if (next === undefined) {
      d += ` L${r(cur.x)},${r(cur.y)}`;
      continue;
    }
    const lenIn = Math.hypot(cur.x - prev.x, cur.y - prev.y);
    const lenOut = Math.hypot(next.x - cur.x, next.y - cur.y);
    const radius = Math.min(8, lenIn / 2, lenOut / 2);
    if (radius < 0.5) {
      d += ` L${r(cur.x)},${r(cur.y)}`;
      continue;
    }
    const p1 = {
      x: cur.x - ((cur.x - prev.x) / lenIn) * radius,
      y: cur.y - ((cur.y - prev.y) / lenIn) * radius,
    };
    const p2 = {
      x: cur.x + ((next.x - cur.x) / lenOut) * radius,
      y: cur.y + ((next.y - cur.y) / lenOut) * radius,
    };
    d += ` L${r(p1.x)},${r(p1.y)} Q${r(cur.x)},${r(cur.y)} ${r(p2.x)},${r(p2.y)}`;
  }
  return d;
}

function edgeElement(e: LayoutEdge): SVGGElement {
  const classes = ["edge", `edge-${e.kind}`];
  if (e.route !== null) classes.push(`route-${e.route}`);
  if (e.back) classes.push("back");
  const d = e.shape === "curve" ? curvePath(e.points) : orthogonalPath(e.points);
  return s(
    "g",
    { class: classes.join(" "), "data-from": e.from, "data-to": e.to ?? "END", "data-route": e.route ?? "" },
    s("path", { d, "marker-end": `url(#${markerFor(e)})` }),
  );
}

function labelElement(e: LayoutEdge): SVGGElement | null {
  const l = e.label;
  if (l === null) return null;
  return s(
    "g",
    { class: `edge-label route-${e.route ?? "none"}`, "aria-hidden": "true" },
    s("rect", { x: r(l.x - l.width / 2), y: r(l.y - l.height / 2), width: l.width, height: l.height, rx: 4 }),
    s("text", { x: r(l.x), y: r(l.y + 4), "text-anchor": "middle" }, l.text),
  );
}

function shape(box: LayoutNode): SVGElement[] {
  const { width: w, height: hgt } = box;
  switch (box.kind) {
    case "gate": {
      const p = METRICS.gatePadding;
      const points = `${p},0 ${w - p},0 ${w},${hgt / 2} ${w - p},${hgt} ${p},${hgt} 0,${hgt / 2}`;
      return [s("polygon", { class: "shape", points })];
    }
    case "inline":
    case "end":
      return [s("rect", { class: "shape", width: w, height: hgt, rx: hgt / 2 })];
    case "flow":
      return [
        s("rect", { class: "shape", width: w, height: hgt, rx: 6 }),
        s("rect", { class: "shape-inner", x: 4, y: 4, width: w - 8, height: hgt - 8, rx: 3 }),
      ];
    default:
      return [s("rect", { class: "shape", width: w, height: hgt, rx: 8 })];
  }
}

function nodeElement(box: LayoutNode, node: GraphNodeView, onSelect: (stepId: string) => void): SVGGElement {
  const inner = box.width - 2 * (node.kind === "gate" ? METRICS.gatePadding + 6 : METRICS.nodePadding);
  const subtitle = nodeSubtitle(node);
  const state = STATE_LABEL[node.state];
  const g = s(
    "g",
    {
      class: `node state-${node.state} kind-${node.kind}`,
      "data-step-id": node.id,
      transform: `translate(${r(box.x)},${r(box.y)})`,
      tabindex: 0,
      role: "button",
      "aria-label": `Step ${node.id}, ${subtitle}, ${state}`,
    },
    s("title", null, `${node.id}\n${subtitle}\nstate: ${state}`),
    shape(box),
    s(
      "text",
      { class: "node-title", x: r(box.width / 2), y: 21, "text-anchor": "middle" },
      fitText(node.id, inner, METRICS.titleFont, true),
    ),
    s(
      "text",
      { class: "node-subtitle", x: r(box.width / 2), y: 37, "text-anchor": "middle" },
      fitText(subtitle, inner, METRICS.subtitleFont),
    ),
  );
  g.addEventListener("click", () => onSelect(node.id));
  g.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      onSelect(node.id);
    }
  });
  return g;
}

function endElement(box: LayoutNode): SVGGElement {
  return s(
    "g",
    { class: "node node-end", transform: `translate(${r(box.x)},${r(box.y)})` },
    s("title", null, "the end of the flow"),
    shape(box),
    s(
      "text",
      { class: "node-title", x: r(box.width / 2), y: r(box.height / 2 + 4), "text-anchor": "middle" },
      "END",
    ),
  );
}

/** The flow graph as `<svg id="graph">`; clicking (or Enter on) a step calls `onSelect`. */
export function renderGraph(
  graph: NonNullable<FlowPage["graph"]>,
  onSelect: (stepId: string) => void,
): SVGSVGElement {
  const layout = layoutGraph(graph);
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const nodes: SVGGElement[] = [];
  for (const box of layout.nodes) {
    const node = byId.get(box.id);
    if (node !== undefined) nodes.push(nodeElement(box, node, onSelect));
  }
  if (layout.end !== null) nodes.push(endElement(layout.end));
  return s(
    "svg",
    {
      id: "graph",
      class: "graph",
      viewBox: `0 0 ${layout.width} ${layout.height}`,
      width: layout.width,
      height: layout.height,
      role: "group",
      "aria-label": `Flow graph: ${graph.nodes.length} steps`,
    },
    s(
      "defs",
      null,
      ["arrow-dependency", "arrow-route", "arrow-back", "arrow-kill"].map((id) => marker(id)),
    ),
    s("g", { class: "edges" }, layout.edges.map(edgeElement)),
    s("g", { class: "nodes" }, nodes),
    s("g", { class: "labels" }, layout.edges.map(labelElement)),
  );
}
