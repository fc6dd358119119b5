// The one region in which two versions of a document differ: the common prefix and suffix are
// skipped, whatever edits the editor sent (several content changes, or versions the language
// server never checked, collapse into one change).

/** `old.slice(start, oldEnd)` was replaced by `new.slice(start, newEnd)`; the rest is equal. */
export interface TextChange {
  readonly start: number;
  readonly oldEnd: number;
  readonly newEnd: number;
}

export function changeBetween(before: string, after: string): TextChange {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // The suffix may not reach back into the prefix (an insertion of a repeated character).
  let tail = 0;
  const maxTail = shorter - start;
  while (
    tail < maxTail &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  ) {
    tail++;
  }
  return { start, oldEnd: before.length - tail, newEnd: after.length - tail };
}

/** How far the text after the change moved. */
export function changeDelta(change: TextChange): number {
  return change.newEnd - change.oldEnd;
}
