// The YAML tree the outline and folding ranges are read from: the model's root when there is a
// model, otherwise the tree the YAML loader recovered from a broken document (the same loader
// `checkSpec` runs; its diagnostics are already in the check result, so they are dropped here).
import { DiagnosticSink } from "../report";
import { loadYaml } from "../yaml/load";
import type { SpecNode } from "../yaml/nodes";
import type { OffsetRange, SpecDocument } from "./types";

const trees = new WeakMap<SpecDocument["check"], SpecNode>();

export function documentTree(doc: SpecDocument): SpecNode {
  const known = trees.get(doc.check);
  if (known !== undefined) return known;
  const tree = doc.check.model?.root ?? loadYaml(doc.check.source, new DiagnosticSink()).root;
  trees.set(doc.check, tree);
  return tree;
}

/** [start, end) without the whitespace (blanks, line breaks) at its end. */
export function trimmedRange(text: string, start: number, end: number): OffsetRange {
  let e = Math.min(end, text.length);
  while (e > start && /\s/.test(text.charAt(e - 1))) e--;
  return { start, end: e };
}
