// Helpers of the navigation tests: a checked document from marked text, range texts and lines,
// and applying rename edits.
import { checkSpec } from "../../../../checker/check-spec";
import type { OffsetEdit, OffsetRange, SpecDocument } from "../../../../checker/services/types";
import { type Marked, markers } from "../markers";

export interface MarkedDoc extends Marked {
  readonly doc: SpecDocument;
}

export function markedDoc(source: string): MarkedDoc {
  const m = markers(source);
  return { ...m, doc: { text: m.text, check: checkSpec(m.text) } };
}

export function docOf(text: string): SpecDocument {
  return { text, check: checkSpec(text) };
}

/** The cursor at index `i` (throws when absent, so a test cannot silently use offset 0). */
export function cursor(m: Marked, i = 0): number {
  const c = m.cursors[i];
  if (c === undefined) throw new Error(`no cursor ${i}`);
  return c;
}

/** Each range as `line:text` (1-based line), for readable exact assertions. */
export function show(doc: SpecDocument, ranges: readonly OffsetRange[]): string[] {
  return ranges.map((r) => `${doc.check.source.lineOf(r.start)}:${doc.text.slice(r.start, r.end)}`);
}

/** Applies non-overlapping edits (any order). */
export function applyEdits(text: string, edits: readonly OffsetEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.range.start - a.range.start);
  let out = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const e of sorted) {
    if (e.range.end > limit) throw new Error("overlapping edits");
    out = out.slice(0, e.range.start) + e.newText + out.slice(e.range.end);
    limit = e.range.start;
  }
  return out;
}
