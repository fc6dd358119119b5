// Reading task files (docs/reference/runtime.md §19.2). Expected values were computed with the reference's
// patterns under CPython (`re`, `str.splitlines`, `str.strip`).
import { describe, expect, it } from "vitest";
import { pyStrip, splitLines } from "../../../interpreter/speckit/python-text";
import { readTaskText, type TaskText } from "../../../interpreter/speckit/read-tasks";

const task = (title: string, parallel: boolean, description: string, criteria: string[]): TaskText => ({
  title,
  parallel,
  description,
  criteria,
});

describe("readTaskText", () => {
  it.each<[string, string, TaskText]>([
    [
      "title, description, checked and unchecked criteria",
      "# Task: Research\n\nBody.\n\n## Acceptance Criteria\n- [ ] a\n- [x] b\n- [X] c\n",
      task("Research", false, "Body.", ["a", "b", "c"]),
    ],
    [
      "indented heading, [p] in any case, every marker replaced by one space",
      "   ## Task:   [p] Lower p  [P]  twice\nbody",
      task("Lower p twice", true, "body", []),
    ],
    [
      "criteria header in any case; later headings do not stop the scan; loose spacing; no [y]",
      "no heading here\nsecond line\n## acceptance criteria\n  -   [ ]   spaced   \n- [y] not a box\n-[ ]tight\n# Later heading\n- [ ] after later heading",
      task("acceptance criteria", false, "", ["spaced", "tight", "after later heading"]),
    ],
    ["an empty file", "", task("", false, "", [])],
    [
      "the criteria header as the title line",
      "# Acceptance Criteria\n- [ ] on the title line",
      task("Acceptance Criteria", false, "", ["on the title line"]),
    ],
    [
      "every universal newline splits lines",
      "#Task:X\r\nline2\rline3\vline4\fline5\x1cline6\x85line7\u2028line8\n## Acceptance Criteria\u2029- [ ] split by PS",
      task("X", false, "line2\nline3\nline4\nline5\nline6\nline7\nline8", ["split by PS"]),
    ],
    [
      "Unicode white space is white space",
      "\u3000# Title with ideographic space\u3000\n\u00a0desc\u00a0\n## Acceptance Criteria\n\u3000-\u3000[ ]\u3000crit\u3000",
      task("Title with ideographic space", false, "desc", ["crit"]),
    ],
    [
      "without a header no line is a criterion",
      "# Task:\n- [ ] no header so not a criterion",
      task("", false, "- [ ] no header so not a criterion", []),
    ],
    [
      "a box with only spaces after it gives an empty criterion",
      "# T\n## Acceptance Criteria\n- [ ]   \n- [ ] x",
      task("T", false, "", ["", "x"]),
    ],
    [
      "a byte order mark hides the heading (Python keeps U+FEFF, it is not white space)",
      "\uFEFF# BOM title\nbody",
      task("", false, "body", []),
    ],
    [
      "`Task:` is case-sensitive",
      "# task: lower task prefix [P]",
      task("task: lower task prefix", true, "", []),
    ],
    [
      "U+001F is white space for str.strip",
      "# Title\x1f\n## Acceptance Criteria\n- [ ] \x1fa\x1f",
      task("Title", false, "", ["a"]),
    ],
  ])("%s", (_name, text, expected) => {
    expect(readTaskText(text)).toEqual(expected);
  });
});

describe("Python string helpers", () => {
  it("splitLines is str.splitlines", () => {
    expect(splitLines("a\r\nb\n\nc\n")).toEqual(["a", "b", "", "c"]);
    expect(splitLines("\n")).toEqual([""]);
    expect(splitLines("x\x1dy\x1ez\x1f")).toEqual(["x", "y", "z\x1f"]);
  });

  it("pyStrip strips str.isspace characters only", () => {
    expect(pyStrip("\x1c\x1f\x85\u00a0\u2000 x \u3000\u205f\t")).toBe("x");
    expect(pyStrip("\uFEFFx\u200b")).toBe("\uFEFFx\u200b");
  });
});
