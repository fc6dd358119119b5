// Folding ranges: every mapping or sequence value and every scalar (block or
// quoted) that spans several lines, and blocks of two or more full-line comments. Read from the
// YAML tree (outline-tree.ts), so a document with broken YAML still folds what the loader
// recovered; comment lines inside multi-line scalars are content, not comments.
import type { SpecSource } from "../source";
import type { SpecNode } from "../yaml/nodes";
import { documentTree, trimmedRange } from "./outline-tree";
import type { FoldingRangeInfo, OffsetRange, SpecDocument } from "./types";

export function folding(doc: SpecDocument): FoldingRangeInfo[] {
  const text = doc.text;
  const source = doc.check.source;
  const out: FoldingRangeInfo[] = [];
  const scalars: OffsetRange[] = [];
  const fold = (start: number, end: number): void => {
    const r = trimmedRange(text, start, end);
    if (source.lineOf(r.start) < source.lineOf(r.end)) out.push({ range: r });
  };
  // Iterative: the tree may be 200 levels deep.
  const stack: SpecNode[] = [documentTree(doc)];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.kind === "scalar") {
      if (multiLine(source, node.range)) scalars.push(node.range);
    } else if (node.kind === "map") {
      for (const e of node.entries) {
        if (e.value.kind !== "scalar" || multiLine(source, e.value.range))
          fold(e.key.range.start, e.value.range.end);
        stack.push(e.value);
      }
    } else {
      node.items.forEach((item, i) => {
        if (item.kind !== "scalar" || multiLine(source, item.range))
          fold(node.itemStarts[i] ?? item.range.start, item.range.end);
        stack.push(item);
      });
    }
  }
  out.push(...commentBlocks(text, source, scalars));
  return out.sort((a, b) => a.range.start - b.range.start || b.range.end - a.range.end);
}

function multiLine(source: SpecSource, r: OffsetRange): boolean {
  return source.lineOf(r.start) < source.lineOf(Math.max(r.start, r.end - 1));
}

/** Runs of two or more lines that hold only a comment, outside multi-line scalars. */
function commentBlocks(
  text: string,
  source: SpecSource,
  scalars: readonly OffsetRange[],
): FoldingRangeInfo[] {
  const out: FoldingRangeInfo[] = [];
  const inScalar = (offset: number): boolean => scalars.some((r) => offset > r.start && offset < r.end);
  let first = -1;
  let last = -1;
  let lines = 0;
  const flush = (): void => {
    if (lines >= 2) out.push({ range: trimmedRange(text, first, last), kind: "comment" });
    lines = 0;
  };
  const pattern = /^[ \t]*(#)[^\r\n]*/gm;
  let previousLine = -2;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const hash = m.index + m[0].indexOf("#");
    if (inScalar(hash)) continue;
    const line = source.lineOf(hash);
    if (line !== previousLine + 1) flush();
    if (lines === 0) first = hash;
    last = m.index + m[0].length;
    lines++;
    previousLine = line;
  }
  flush();
  return out;
}
