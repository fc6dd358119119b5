import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineMap, offsetToPosition, rangeToLocation } from "../../checker/location";

describe("offset → line/column (code points)", () => {
  it("counts columns from 1 on the first line", () => {
    expect(offsetToPosition("a + b", 0)).toEqual({ line: 1, column: 1 });
    expect(offsetToPosition("a + b", 4)).toEqual({ line: 1, column: 5 });
    expect(offsetToPosition("a + b", 5)).toEqual({ line: 1, column: 6 });
  });

  it("counts an astral character (two UTF-16 units) as one column", () => {
    const text = "'😀😀' + x"; // each emoji is a surrogate pair
    const x = text.indexOf("x");
    expect(x).toBe(9);
    expect(offsetToPosition(text, x)).toEqual({ line: 1, column: 8 });
    expect(rangeToLocation(text, 1, 5)).toEqual({ line: 1, column: 2, endLine: 1, endColumn: 4 });
  });

  it("recognises \\n, \\r\\n and \\r as line breaks", () => {
    const text = "a\nb\r\nc\rd";
    expect(offsetToPosition(text, text.indexOf("b"))).toEqual({ line: 2, column: 1 });
    expect(offsetToPosition(text, text.indexOf("c"))).toEqual({ line: 3, column: 1 });
    expect(offsetToPosition(text, text.indexOf("d"))).toEqual({ line: 4, column: 1 });
    expect(new LineMap(text).lineCount).toBe(4);
  });

  it("places an offset on a line break at the end of its line", () => {
    expect(offsetToPosition("ab\ncd", 2)).toEqual({ line: 1, column: 3 });
    // Between the CR and the LF of a CRLF: still the end of the line (the pair is one break).
    expect(offsetToPosition("ab\r\ncd", 2)).toEqual({ line: 1, column: 3 });
    expect(offsetToPosition("ab\r\ncd", 3)).toEqual({ line: 1, column: 3 });
  });

  it("clamps offsets outside the text", () => {
    expect(offsetToPosition("abc", -4)).toEqual({ line: 1, column: 1 });
    expect(offsetToPosition("abc", 99)).toEqual({ line: 1, column: 4 });
    expect(offsetToPosition("", 0)).toEqual({ line: 1, column: 1 });
  });

  it("gives ranges spanning lines and never ends before the start", () => {
    expect(rangeToLocation("x and\n  é😀y", 2, 11)).toEqual({ line: 1, column: 3, endLine: 2, endColumn: 5 });
    expect(rangeToLocation("abc", 2, 1)).toEqual({ line: 1, column: 3, endLine: 1, endColumn: 3 });
  });

  it("returns each line's text without its break", () => {
    const map = new LineMap("one\r\ntwo\rthree\n");
    expect([1, 2, 3, 4].map((n) => map.lineText(n))).toEqual(["one", "two", "three", ""]);
    expect(map.lineText(5)).toBe("");
  });

  it("agrees with splitting lines and counting code points (property)", () => {
    const piece = fc.constantFrom("a", "é", "😀", "𝔸", "\n", "\r\n", "\r", " ", "\t");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(), (pieces, k) => {
        const text = pieces.join("");
        // Only offsets at piece boundaries (never inside a surrogate pair).
        const boundaries = [0];
        for (const p of pieces) boundaries.push(boundaries.at(-1)! + p.length);
        // Adjacent "\r" and "\n" pieces form one CRLF break: no offset between them.
        const inside = (o: number) => text[o - 1] === "\r" && text[o] === "\n";
        const candidates = boundaries.filter((o) => !inside(o));
        const offset = candidates[k % candidates.length]!;
        const before = text.slice(0, offset).split(/\r\n|\r|\n/);
        const expected = { line: before.length, column: Array.from(before.at(-1)!).length + 1 };
        expect(offsetToPosition(text, offset)).toEqual(expected);
      }),
    );
  });
});
