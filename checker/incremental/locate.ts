// Finds the scalar of the previous tree that holds a change: the path from the root (each step is
// one collection and the child taken in it) and the scalar itself. A change that is not inside
// one scalar's range (between nodes, in a comment, across several nodes) has no target.
import type { MapNode, ScalarNode, SeqNode, SpecNode } from "../yaml/nodes";
import type { TextChange } from "./text-change";

/** One collection on the way down and which of its children leads on. */
export type PathStep =
  | { readonly node: MapNode; readonly entry: number; readonly side: "key" | "value" }
  | { readonly node: SeqNode; readonly item: number };

export interface ScalarTarget {
  readonly path: readonly PathStep[];
  readonly scalar: ScalarNode;
  /** The scalar is a mapping key. */
  readonly isKey: boolean;
  /** The scalar is inside a flow collection (`[a, b]`, `{a: 1}`). */
  readonly inFlow: boolean;
}

function holds(node: SpecNode, change: TextChange): boolean {
  return node.range.start <= change.start && change.oldEnd <= node.range.end;
}

export function locateScalar(root: SpecNode, change: TextChange): ScalarTarget | null {
  const path: PathStep[] = [];
  let node: SpecNode = root;
  let isKey = false;
  let inFlow = false;
  // Bounded by the tree's depth (the loader refuses documents deeper than MAX_DEPTH).
  while (node.kind !== "scalar") {
    inFlow ||= node.flow;
    let next: SpecNode | null = null;
    if (node.kind === "map") {
      const entries = node.entries;
      for (let i = 0; i < entries.length && next === null; i++) {
        const entry = entries[i];
        if (entry === undefined) continue;
        if (holds(entry.key, change)) {
          path.push({ node, entry: i, side: "key" });
          next = entry.key;
          isKey = true;
        } else if (holds(entry.value, change)) {
          path.push({ node, entry: i, side: "value" });
          next = entry.value;
          isKey = false;
        }
      }
    } else {
      const items = node.items;
      for (let i = 0; i < items.length && next === null; i++) {
        const item = items[i];
        if (item !== undefined && holds(item, change)) {
          path.push({ node, item: i });
          next = item;
          isKey = false;
        }
      }
    }
    if (next === null) return null;
    node = next;
  }
  if (path.length === 0) return null; // a document that is one scalar: always fully reloaded
  return { path, scalar: node, isKey, inFlow };
}
