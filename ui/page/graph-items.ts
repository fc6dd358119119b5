// The layout's working model: one item per node and per dummy point of a long edge, linked
// between ranks, and the edges that are drawn.
import type { GraphEdgeView } from "../api-types";

export interface Item {
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

export interface DrawnEdge {
  readonly from: number;
  readonly to: number;
  readonly source: GraphEdgeView;
  back: boolean;
  /** Source item, dummies, target item (forward edges only). */
  chain: Item[];
}

export function newItem(node: number, edge: number, rank: number, width: number): Item {
  return { node, edge, rank, width, x: 0, order: 0, up: [], down: [] };
}

export function link(upper: Item | undefined, lower: Item | undefined, drawn: boolean): void {
  if (upper === undefined || lower === undefined) return;
  const dummies = (upper.node < 0 ? 1 : 0) + (lower.node < 0 ? 1 : 0);
  const weight = drawn ? ([1, 0.1, 2][dummies] ?? 1) : 0.5;
  upper.down.push({ item: lower, weight, drawn });
  lower.up.push({ item: upper, weight, drawn });
}
