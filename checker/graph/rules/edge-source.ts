// Where a dependency edge is written, as a path and an anchor (docs/reference/language.md §9.5.4): the
// `depends_on` item (`V:depends_on[i]`), the `inputs` value or a parallel_dispatch step's `source`, both with the docs/reference/language.md §9.2 start-line rule.
import { itemRange, valueRange } from "../../anchors";
import type { SourceRange } from "../../base/source-range";
import type { SpecSource } from "../../source";
import type { DependencyEdge } from "../types";
import { stepPath } from "./paths";

export function edgeLocation(
  src: SpecSource,
  flow: string,
  edge: DependencyEdge,
): { readonly path: string; readonly range: SourceRange } {
  const base = stepPath(flow, edge.from.id ?? "");
  const s = edge.source;
  if (s.kind === "depends_on") {
    return { path: `${base}.depends_on`, range: itemRange(src, s.entry, s.index) };
  }
  if (s.kind === "source") return { path: `${base}.source`, range: valueRange(src, s.entry) };
  return { path: `${base}.inputs.${s.name}`, range: valueRange(src, s.entry) };
}
