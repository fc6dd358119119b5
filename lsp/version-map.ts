// Offsets between the text a tree was checked from and the document's current text, for answers
// given from an older tree while the current version is still being checked (off-thread mode).
// The two texts differ in one region (common prefix and suffix, checker/incremental/text-change):
// an offset before it is the same in both, one after it moves by the length difference, and
// anything inside or touching the region has no counterpart: the request or the answer is withheld
// there (no answer is better than a wrong one).

import type { OffsetRange } from "../checker/index";
import { changeBetween, type TextChange } from "../checker/index";

export interface VersionMap {
  /** The offset in the checked text of an offset in the current text; null inside the changed region. */
  toChecked(offset: number): number | null;
  /** A range of the checked text in the current text; null when it touches the changed region. */
  toCurrent(range: OffsetRange): OffsetRange | null;
  /**
   * A range that may enclose the change (a symbol or a fold around an edited scalar): its end
   * moves with the text; a range partly inside the change is null.
   */
  enclosingToCurrent(range: OffsetRange): OffsetRange | null;
}

/** The same text: every offset maps to itself. */
export const IDENTITY: VersionMap = {
  toChecked: (offset) => offset,
  toCurrent: (range) => range,
  enclosingToCurrent: (range) => range,
};

export function versionMap(checked: string, current: string): VersionMap {
  if (checked === current) return IDENTITY;
  return new ChangeMap(changeBetween(checked, current));
}

class ChangeMap implements VersionMap {
  private readonly delta: number;

  constructor(private readonly change: TextChange) {
    this.delta = change.newEnd - change.oldEnd;
  }

  toChecked(offset: number): number | null {
    const { start, newEnd } = this.change;
    // Both ends count as inside: a cursor just before or after typed text reads that text.
    if (offset < start) return offset;
    if (offset > newEnd) return offset - this.delta;
    return null;
  }

  toCurrent(range: OffsetRange): OffsetRange | null {
    const { start, oldEnd } = this.change;
    // Strictly apart: a token that ends where typed text begins may have merged with it.
    if (range.end < start) return range;
    if (range.start > oldEnd) return { start: range.start + this.delta, end: range.end + this.delta };
    return null;
  }

  enclosingToCurrent(range: OffsetRange): OffsetRange | null {
    const { start, oldEnd } = this.change;
    if (range.start < start && range.end > oldEnd) return { start: range.start, end: range.end + this.delta };
    return this.toCurrent(range);
  }
}
