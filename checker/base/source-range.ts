// A half-open span of the spec text. Every checker folder and the layers above it use it, so it
// lives in the checker's base, which imports nothing.
// All offsets are UTF-16 offsets into the file text (what JS strings index); `checker/location.ts`
// converts them to lines and code-point columns.

export interface SourceRange {
  /** UTF-16 offset of the first character. */
  readonly start: number;
  /** Half-open: the offset just after the last character. */
  readonly end: number;
}
