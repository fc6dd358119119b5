// The one position conversion of the language server: offsets ⇄ protocol positions, and the
// checker's public (1-based, code-point) form → protocol positions, agreeing with checker/location.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineMap } from "../../checker/location";
import { PositionIndex } from "../../lsp/positions";

const pieces = ["a", "é", "😀", "\n", "\r\n", "\r", " ", "\t", "x"];
const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((xs) => xs.join(""));

/** Offsets that are not inside a CRLF pair or a surrogate pair. */
function boundaries(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i <= text.length; i++) {
    const prev = text.charCodeAt(i - 1);
    const cur = text.charCodeAt(i);
    if (prev === 13 && cur === 10) continue;
    if (prev >= 0xd800 && prev <= 0xdbff) continue;
    out.push(i);
  }
  return out;
}

describe("PositionIndex", () => {
  it("converts the positions of a text with every kind of line break and astral characters", () => {
    const index = new PositionIndex("a😀b\r\ncd\re\n");
    expect(index.lineCount).toBe(4);
    expect(index.positionAt(3)).toEqual({ line: 0, character: 3 });
    expect(index.positionAt(5)).toEqual({ line: 0, character: 4 }); // inside \r\n: end of line 0
    expect(index.positionAt(6)).toEqual({ line: 1, character: 0 });
    expect(index.positionAt(9)).toEqual({ line: 2, character: 0 });
    expect(index.offsetAt({ line: 1, character: 99 })).toBe(8); // clamped to the line's end
    expect(index.offsetAt({ line: 9, character: 0 })).toBe(11);
    expect(index.fromPublic(1, 3)).toEqual({ line: 0, character: 3 }); // b: after one astral code point
    expect(index.fromPublicRange({ line: 1, column: 2, end_line: 2, end_column: 3 })).toEqual({
      start: { line: 0, character: 1 },
      end: { line: 1, character: 2 },
    });
  });

  it("round-trips every boundary offset through a protocol position", () => {
    fc.assert(
      fc.property(texts, (text) => {
        const index = new PositionIndex(text);
        for (const offset of boundaries(text)) expect(index.offsetAt(index.positionAt(offset))).toBe(offset);
      }),
    );
  });

  it("maps the checker's public line and code-point column back to the same offset", () => {
    fc.assert(
      fc.property(texts, (text) => {
        const index = new PositionIndex(text);
        const lines = new LineMap(text);
        for (const offset of boundaries(text)) {
          const p = lines.position(offset);
          expect(index.offsetAt(index.fromPublic(p.line, p.column))).toBe(offset);
        }
      }),
    );
  });
});
