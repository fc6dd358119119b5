// Offsets between an older checked text and the current one (off-thread answers): the same
// before the changed region, shifted after it, and nothing inside or touching it.
import { describe, expect, it } from "vitest";
import { IDENTITY, versionMap } from "../../lsp/version-map";

// "abc XYZ def" → "abc Q def": [4, 7) replaced by [4, 5); everything after moves by -2.
const map = versionMap("abc XYZ def", "abc Q def");

describe("versionMap", () => {
  it("is the identity for the same text", () => {
    expect(versionMap("same", "same")).toBe(IDENTITY);
  });

  it("maps current offsets to the checked text, none inside or at the edges of the change", () => {
    expect([0, 3, 4, 5, 6, 8].map((o) => map.toChecked(o))).toEqual([0, 3, null, null, 8, 10]);
  });

  it("maps checked ranges to the current text, none touching the change", () => {
    expect(map.toCurrent({ start: 0, end: 3 })).toEqual({ start: 0, end: 3 });
    expect(map.toCurrent({ start: 0, end: 4 })).toBeNull(); // ends where the change begins
    expect(map.toCurrent({ start: 5, end: 6 })).toBeNull();
    expect(map.toCurrent({ start: 7, end: 11 })).toBeNull(); // begins where the change ends
    expect(map.toCurrent({ start: 8, end: 11 })).toEqual({ start: 6, end: 9 });
  });

  it("moves the end of a range enclosing the change", () => {
    expect(map.enclosingToCurrent({ start: 0, end: 11 })).toEqual({ start: 0, end: 9 });
    expect(map.enclosingToCurrent({ start: 4, end: 11 })).toBeNull();
    expect(map.enclosingToCurrent({ start: 8, end: 10 })).toEqual({ start: 6, end: 8 });
  });

  it("treats an insertion point as a change of both neighbours", () => {
    const inserted = versionMap("ab", "aXb"); // [1, 1) → [1, 2)
    expect([0, 1, 2, 3].map((o) => inserted.toChecked(o))).toEqual([0, null, null, 2]);
    expect(inserted.toCurrent({ start: 0, end: 1 })).toBeNull();
    expect(inserted.toCurrent({ start: 1, end: 2 })).toBeNull();
    expect(inserted.enclosingToCurrent({ start: 0, end: 2 })).toEqual({ start: 0, end: 3 });
  });
});
