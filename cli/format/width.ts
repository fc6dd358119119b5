// Terminal cell widths of code points, for lining up underlines in code frames: East Asian wide and
// fullwidth characters and emoji take two cells, combining marks and zero-width characters none.
// An approximation of wcwidth that covers what specs contain; the worst case is a misplaced caret.

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;

/** [first, last] code point ranges of wide characters, sorted. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

/** Cells taken by one code point (given as a string); tabs and controls are the caller's business. */
export function cellWidth(char: string): number {
  const cp = char.codePointAt(0) ?? 0;
  if (cp < 0x300) return 1;
  if (ZERO_WIDTH.test(char)) return 0;
  for (const [first, last] of WIDE) {
    if (cp < first) break;
    if (cp <= last) return 2;
  }
  return EMOJI.test(char) ? 2 : 1;
}
