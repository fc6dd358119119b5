// Sizes of the drawing and an estimate of text widths, shared by the layout and the SVG renderer.
import type { GraphNodeView } from "../api-types";

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
