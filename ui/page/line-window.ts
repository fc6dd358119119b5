// Which lines of a long list of equal-height lines to draw (spec-lines.ts): pure arithmetic, so the
// page's virtualised spec box can be tested without a browser.

/** Lines drawn before the line height is known: the box's height at any font size a person uses. */
const FIRST_WINDOW = 80;

/** Lines `first` … `end - 1` (0-based, into the lines shown). */
export interface LineWindow {
  readonly first: number;
  readonly end: number;
}

/**
 * The lines to draw for a box scrolled to `scrollTop` showing `viewHeight` pixels of `count` lines
 * of `lineHeight` (> 0) pixels each: those in view and `overscan` more on each side, within the lines.
 */
export function lineWindow(
  scrollTop: number,
  viewHeight: number,
  lineHeight: number,
  count: number,
  overscan: number,
): LineWindow {
  const top = Math.floor(Math.max(0, scrollTop) / lineHeight);
  const bottom = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewHeight)) / lineHeight);
  return {
    first: Math.min(count, Math.max(0, top - overscan)),
    end: Math.min(count, Math.max(0, bottom + overscan)),
  };
}

/** The window drawn before anything is measured: FIRST_WINDOW lines with `index` a third of the way down. */
export function firstWindow(index: number, count: number, size: number = FIRST_WINDOW): LineWindow {
  const first = Math.max(0, Math.min(count - size, index - Math.floor(size / 3)));
  return { first, end: Math.min(count, first + size) };
}
