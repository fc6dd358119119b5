// The code frame of `stratumc check` (cli/format/source-frame.ts): exact underlines in terminal
// cells for tabs, wide characters, combining marks, multi-line ranges and long lines.
import { describe, expect, it } from "vitest";
import type { LocatedRange } from "../../checker/diagnostic";
import { LineMap } from "../../checker/location";
import { frameRows, MAX_LINE_CELLS } from "../../cli/format/source-frame";

function frame(text: string, line: number, column: number, endLine: number, endColumn: number): string[] {
  const range: LocatedRange = { line, column, end_line: endLine, end_column: endColumn };
  return frameRows(new LineMap(text), range).flatMap((r) => [
    `${r.line ?? "…"}|${r.source}`,
    ...(r.marks === "" ? [] : [`${" ".repeat(String(r.line ?? "…").length)}|${r.marks}`]),
  ]);
}

describe("source frame", () => {
  it("underlines exactly the range with carets", () => {
    expect(frame("a: 1\ndepends_on: [bulid]\n", 2, 14, 2, 19)).toEqual([
      "2|depends_on: [bulid]",
      " |             ^^^^^",
    ]);
  });

  it("shows one caret for an empty range, also just after the end of the line", () => {
    expect(frame("abc", 1, 2, 1, 2)).toEqual(["1|abc", " | ^"]);
    expect(frame("abc", 1, 4, 1, 4)).toEqual(["1|abc", " |   ^"]);
    expect(frame("", 1, 1, 1, 1)).toEqual(["1|", " |^"]);
  });

  it("expands tabs to the next multiple of four and keeps the carets under the text", () => {
    expect(frame("\tx:\t'a'", 1, 5, 1, 8)).toEqual(["1|    x:  'a'", " |        ^^^"]);
  });

  it("counts columns in code points and lays carets out in cells (wide, emoji, combining)", () => {
    // '日本' are two cells each; the range is the two code points after them.
    expect(frame("x: 日本ab", 1, 6, 1, 8)).toEqual(["1|x: 日本ab", " |       ^^"]);
    expect(frame("x: 日本ab", 1, 4, 1, 6)).toEqual(["1|x: 日本ab", " |   ^^^^"]);
    expect(frame("e: 😀 z", 1, 6, 1, 7)).toEqual(["1|e: 😀 z", " |      ^"]);
    // e + COMBINING ACUTE is two code points but one cell.
    expect(frame("n: e\u0301x", 1, 6, 1, 7)).toEqual(["1|n: e\u0301x", " |    ^"]);
  });

  it("shows control characters as one space", () => {
    expect(frame("a\u0007b\u009bc", 1, 5, 1, 6)).toEqual(["1|a b c", " |    ^"]);
  });

  it("shows the first and last line of a range over two lines", () => {
    expect(frame("steps:\n  - id: a\n    x: 1\n", 2, 3, 3, 9)).toEqual([
      "2|  - id: a",
      " |  ^^^^^^^",
      "3|    x: 1",
      " |    ^^^^",
    ]);
  });

  it("puts … between the first and last line of a longer range", () => {
    expect(frame("a:\n  - 1\n  - 2\n  - 3\nb: 2\n", 1, 1, 4, 6)).toEqual([
      "1|a:",
      " |^^",
      "…|…",
      "4|  - 3",
      " |  ^^^",
    ]);
  });

  it("treats a range that ends at the start of a line as ending at the end of the line before", () => {
    expect(frame("k: |\n  t\nz: 1\n", 1, 1, 3, 1)).toEqual(["1|k: |", " |^^^^", "2|  t", " |  ^"]);
    expect(frame("k: 1\nz: 2\n", 1, 1, 2, 1)).toEqual(["1|k: 1", " |^^^^"]);
  });

  it("cuts a long line around the start of the range and marks the cuts", () => {
    const text = `${"x".repeat(300)}BAD${"y".repeat(300)}`;
    const [source, marks] = frame(text, 1, 301, 1, 304);
    expect(source).toBe(`1|…${"x".repeat(24)}BAD${"y".repeat(MAX_LINE_CELLS - 27)}…`);
    expect(marks).toBe(` |${" ".repeat(25)}^^^`);
  });

  it("does not cut a long line whose range starts near the beginning, and clips the underline", () => {
    const text = "z".repeat(500);
    const [source, marks] = frame(text, 1, 3, 1, 400);
    expect(source).toBe(`1|${"z".repeat(MAX_LINE_CELLS)}…`);
    expect(marks).toBe(` |  ${"^".repeat(MAX_LINE_CELLS - 2)}`);
  });

  it("shows nothing for a line outside the text", () => {
    expect(frame("a", 5, 1, 5, 2)).toEqual([]);
  });

  it("handles CRLF and lone CR line breaks", () => {
    expect(frame("a: 1\r\nb: x\r\n", 2, 4, 2, 5)).toEqual(["2|b: x", " |   ^"]);
    expect(frame("a: 1\rb: x\r", 2, 4, 2, 5)).toEqual(["2|b: x", " |   ^"]);
  });
});
