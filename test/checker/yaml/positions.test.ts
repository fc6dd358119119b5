// Positions inside scalars (docs/reference/language.md §9.2), for every scalar style: each loaded character's
// mapped source position (line:column, columns in code points), range ends, and the empty range
// just after the content.
import { describe, expect, it } from "vitest";
import { buildScalarMap } from "../../../checker/yaml/scalar-map";
import { charPositions, exactMap, load, scalarAt, where } from "./support";

function mapped(
  text: string,
  ...path: (string | number)[]
): { value: string; at: string[]; scalar: ReturnType<typeof scalarAt>; src: ReturnType<typeof load>["src"] } {
  const l = load(text);
  expect(l.diagnostics).toEqual([]);
  const scalar = scalarAt(l.root, ...path);
  expect(exactMap(scalar)).toBe(true);
  const value = String(scalar.value);
  return { value, at: charPositions(l.src, scalar, value.length), scalar, src: l.src };
}

describe("plain scalars", () => {
  it("single line: character i at the key's value column + i", () => {
    const m = mapped("k: hello\n", "k");
    expect(m.value).toBe("hello");
    expect(m.at).toEqual(["1:4", "1:5", "1:6", "1:7", "1:8"]);
    expect(where(m.src, m.scalar.mapRange(1, 3))).toBe("1:5-1:7");
    expect(where(m.src, m.scalar.mapRange(5, 5))).toBe("1:9-1:9");
  });

  it("multi-line: a folded break maps to the end of its line, an empty line's break to that line", () => {
    const m = mapped("k: ab\n  cd   \n\n  ef\n", "k");
    expect(m.value).toBe("ab cd\nef");
    expect(m.at).toEqual(["1:4", "1:5", "1:6", "2:3", "2:4", "3:1", "4:3", "4:4"]);
    // A range over the fold ends one column after the line's end.
    expect(where(m.src, m.scalar.mapRange(1, 4))).toBe("1:5-2:4");
    expect(where(m.src, m.scalar.mapRange(8, 8))).toBe("4:5-4:5");
  });

  it("non-string plain scalars map their text as written", () => {
    const m = mapped("k: 0x1F\n", "k");
    expect(m.scalar.value).toBe(31);
    expect(where(m.src, m.scalar.mapRange(0, 4))).toBe("1:4-1:8");
  });
});

describe("single-quoted scalars", () => {
  it("'' maps to its first quote and ends after the second", () => {
    const m = mapped("k: 'it''s'\n", "k");
    expect(m.value).toBe("it's");
    expect(m.at).toEqual(["1:5", "1:6", "1:7", "1:9"]);
    expect(where(m.src, m.scalar.mapRange(2, 3))).toBe("1:7-1:9");
    // Just after the content: before the closing quote.
    expect(where(m.src, m.scalar.mapRange(4, 4))).toBe("1:10-1:10");
  });

  it("multi-line with an empty line", () => {
    const m = mapped("k: 'a\n  b\n\n  c'\n", "k");
    expect(m.value).toBe("a b\nc");
    expect(m.at).toEqual(["1:5", "1:6", "2:3", "3:1", "4:3"]);
  });
});

describe("double-quoted scalars", () => {
  it("escapes map to their backslash and end after the escape", () => {
    const text = 'k: "a\\nb\\tc\\x41\\u00e9\\U0001F600"\n';
    const m = mapped(text, "k");
    expect(m.value).toBe("a\nb\tcAé😀");
    expect(m.at).toEqual(["1:5", "1:6", "1:8", "1:9", "1:11", "1:12", "1:16", "1:22", "1:22"]);
    expect(where(m.src, m.scalar.mapRange(1, 2))).toBe("1:6-1:8");
    expect(where(m.src, m.scalar.mapRange(5, 6))).toBe("1:12-1:16");
    expect(where(m.src, m.scalar.mapRange(6, 7))).toBe("1:16-1:22");
    // The surrogate pair of \U0001F600: both halves map to the backslash; the range ends after the escape.
    expect(where(m.src, m.scalar.mapRange(7, 9))).toBe("1:22-1:32");
    expect(where(m.src, m.scalar.mapRange(9, 9))).toBe("1:32-1:32");
  });

  it('simple escapes \\" \\\\ \\/ and an escaped space', () => {
    const m = mapped('k: "q\\"b\\\\s\\/\\ "\n', "k");
    expect(m.value).toBe('q"b\\s/ ');
    expect(m.at).toEqual(["1:5", "1:6", "1:8", "1:9", "1:11", "1:12", "1:14"]);
  });

  it("line continuation produces nothing and skips the next line's indentation", () => {
    const m = mapped('k: "ab\\\n   cd"\n', "k");
    expect(m.value).toBe("abcd");
    expect(m.at).toEqual(["1:5", "1:6", "2:4", "2:5"]);
  });

  it("folding: one break is a space at the line end (trailing blanks dropped), two are a newline", () => {
    const m = mapped('k: "ab  \n  cd\n\n  e"\n', "k");
    expect(m.value).toBe("ab cd\ne");
    expect(m.at).toEqual(["1:5", "1:6", "1:9", "2:3", "2:4", "3:1", "4:3"]);
  });
});

describe("block scalars", () => {
  it("literal |: indentation skipped, each line break at the end of its line", () => {
    const m = mapped("k: |\n  ab\n\n   c\nx: 1\n", "k");
    expect(m.value).toBe("ab\n\n c\n");
    expect(m.at).toEqual(["2:3", "2:4", "2:5", "3:1", "4:3", "4:4", "4:5"]);
    // The node range: from the header to the end of the last content line.
    expect(where(m.src, m.scalar.range)).toBe("1:4-4:5");
    // Just after the content: the end of the last content line.
    expect(where(m.src, m.scalar.mapRange(7, 7))).toBe("4:5-4:5");
  });

  it("literal |- strips the final break; |+ keeps the trailing empty lines", () => {
    expect(mapped("k: |-\n  ab\n  c\n", "k").at).toEqual(["2:3", "2:4", "2:5", "3:3"]);
    const keep = mapped("k: |+\n  ab\n\n\nx: 1\n", "k");
    expect(keep.value).toBe("ab\n\n\n");
    expect(keep.at).toEqual(["2:3", "2:4", "2:5", "3:1", "4:1"]);
    expect(where(keep.src, keep.scalar.range)).toBe("1:4-2:5");
  });

  it("folded >: a break between lines is a space at the end of the line; >- strips", () => {
    const m = mapped("k: >\n  ab\n  cd\n\n  e\n", "k");
    expect(m.value).toBe("ab cd\ne\n");
    expect(m.at).toEqual(["2:3", "2:4", "2:5", "3:3", "3:4", "4:1", "5:3", "5:4"]);
    const strip = mapped("k: >-\n  ab\n  cd\n", "k");
    expect(strip.value).toBe("ab cd");
    expect(strip.at).toEqual(["2:3", "2:4", "2:5", "3:3", "3:4"]);
  });

  it("folded > keeps more-indented lines with their breaks", () => {
    const m = mapped("k: >\n  a\n    b\n  c\n", "k");
    expect(m.value).toBe("a\n  b\nc\n");
    expect(m.at).toEqual(["2:3", "2:4", "3:3", "3:4", "3:5", "3:6", "4:3", "4:4"]);
  });

  it("an explicit indentation indicator keeps the extra leading spaces", () => {
    const m = mapped("k: |2\n    ab\n   c\n", "k");
    expect(m.value).toBe("  ab\n c\n");
    expect(m.at).toEqual(["2:3", "2:4", "2:5", "2:6", "2:7", "3:3", "3:4", "3:5"]);
  });

  it("block scalar inside a sequence (deeper indentation)", () => {
    const m = mapped("k:\n  - |\n    ab\n    c\n", "k", 0);
    expect(m.value).toBe("ab\nc\n");
    expect(m.at).toEqual(["3:5", "3:6", "3:7", "4:5", "4:6"]);
  });
});

describe("line endings and characters before the scalar", () => {
  it("CRLF: a break maps to its \\r (the end of the line)", () => {
    const plain = mapped("k: ab\r\n  cd\r\n", "k");
    expect(plain.value).toBe("ab cd");
    expect(plain.at).toEqual(["1:4", "1:5", "1:6", "2:3", "2:4"]);
    const lit = mapped("k: |\r\n  ab\r\n  c\r\n", "k");
    expect(lit.value).toBe("ab\nc\n");
    expect(lit.at).toEqual(["2:3", "2:4", "2:5", "3:3", "3:4"]);
    const dq = mapped('k: "a\r\n  b\\\r\n  c"\r\n', "k");
    expect(dq.value).toBe("a bc");
    expect(dq.at).toEqual(["1:5", "1:6", "2:3", "3:3"]);
  });

  it("non-BMP characters before and inside the scalar count as one column", () => {
    const m = mapped("p: 😀😀\nk: 😀a😀\n", "k");
    expect(m.value).toBe("😀a😀");
    expect(m.at).toEqual(["2:4", "2:4", "2:5", "2:6", "2:6"]);
    expect(where(m.src, m.scalar.mapRange(0, 2))).toBe("2:4-2:5");
    expect(where(m.src, m.scalar.mapRange(2, 5))).toBe("2:5-2:7");
  });

  it("a byte-order mark before the document shifts nothing", () => {
    const m = mapped("\uFEFFk: ab\n", "k");
    expect(m.at).toEqual(["1:5", "1:6"]);
    expect(m.scalar.range).toEqual({ start: 4, end: 6 });
  });
});

describe("mapRange arguments", () => {
  it("clamps out-of-range and reversed indices", () => {
    const m = mapped("k: abc\n", "k");
    expect(m.scalar.mapRange(-5, 2)).toEqual({ start: 3, end: 5 });
    expect(m.scalar.mapRange(1, 99)).toEqual({ start: 4, end: 6 });
    expect(m.scalar.mapRange(2, 1)).toEqual({ start: 5, end: 5 });
  });

  it("an empty value maps to its position", () => {
    const l = load("k:\nj: 1\n");
    const s = scalarAt(l.root, "k");
    expect(s.value).toBe(null);
    expect(s.range).toEqual({ start: 2, end: 2 });
    expect(s.mapRange(0, 0)).toEqual({ start: 2, end: 2 });
  });
});

describe("safety net", () => {
  it("when the rebuilt string differs from the loaded one, every index maps to the scalar's start", () => {
    const map = buildScalarMap({ text: "k: abc\n", style: "plain", start: 3, end: 6, loaded: "xyz" });
    expect(map.exact).toBe(false);
    expect(map.range(0, 3)).toEqual({ start: 3, end: 4 });
    expect(map.range(2, 2)).toEqual({ start: 3, end: 3 });
    expect(map.range(3, 3)).toEqual({ start: 3, end: 3 });
  });

  it("a block scalar without its CST token falls back instead of throwing", () => {
    const map = buildScalarMap({ text: "k: |\n  a\n", style: "literal", start: 3, end: 9, loaded: "a\n" });
    expect(map.exact).toBe(false);
    expect(map.range(0, 1)).toEqual({ start: 3, end: 4 });
  });
});
