// The graph layout's public shapes (graph-layout.ts computes them, graph-svg.ts draws them).
import type { GraphEdgeView, GraphNodeView } from "../api-types";

export interface Point {
  readonly x: number;
  readonly y: number;
}

type LayoutNodeKind = GraphNodeView["kind"] | "end";

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
