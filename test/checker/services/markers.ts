// Cursor and range markers for editor-service tests: `<|>` marks a cursor, `«…»` marks an
// expected range. The markers are removed; what remains is the document text, and each marker
// becomes a UTF-16 offset (or [start, end) range) into that text.
import type { OffsetRange } from "../../../checker/services/types";

const CURSOR = "<|>";
const RANGE_OPEN = "«";
const RANGE_CLOSE = "»";

export interface Marked {
  /** The text without markers. */
  readonly text: string;
  /** Offsets of the `<|>` markers, in order. */
  readonly cursors: readonly number[];
  /** The `«…»` ranges, in order of their opening marker. */
  readonly ranges: readonly OffsetRange[];
}

/** Removes every marker from `source` and returns their offsets in the clean text. */
export function markers(source: string): Marked {
  let text = "";
  const cursors: number[] = [];
  const ranges: OffsetRange[] = [];
  const open: number[] = [];
  const starts: number[] = [];
  for (let i = 0; i < source.length; ) {
    if (source.startsWith(CURSOR, i)) {
      cursors.push(text.length);
      i += CURSOR.length;
    } else if (source.startsWith(RANGE_OPEN, i)) {
      open.push(ranges.length);
      starts.push(text.length);
      ranges.push({ start: text.length, end: text.length });
      i += RANGE_OPEN.length;
    } else if (source.startsWith(RANGE_CLOSE, i)) {
      const index = open.pop();
      const start = starts.pop();
      if (index === undefined || start === undefined) throw new Error(`unbalanced ${RANGE_CLOSE} at ${i}`);
      ranges[index] = { start, end: text.length };
      i += RANGE_CLOSE.length;
    } else {
      text += source.charAt(i);
      i++;
    }
  }
  if (open.length > 0) throw new Error(`unbalanced ${RANGE_OPEN}`);
  return { text, cursors, ranges };
}

/** The text and the offset of its single `<|>` marker (ranges markers are not allowed here). */
export function withCursor(source: string): { text: string; offset: number } {
  const m = markers(source);
  const offset = m.cursors[0];
  if (m.cursors.length !== 1 || offset === undefined) {
    throw new Error(`expected exactly one ${CURSOR} marker, found ${m.cursors.length}`);
  }
  return { text: m.text, offset };
}
