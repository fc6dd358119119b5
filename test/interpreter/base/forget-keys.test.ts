// Forgetting keys of a long-lived map: a fresh map when they are all it holds (V8's left tables of
// a map emptied in place keep what it held alive through young-generation collections), the same
// map with them deleted otherwise.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withoutKeys } from "../../../interpreter/base/forget-keys";

describe("withoutKeys", () => {
  it("answers a fresh empty map when the keys are every key the map holds, and leaves that map as it was", () => {
    const map = new Map([
      ["a", 1],
      ["b", 2],
    ]);
    const out = withoutKeys(map, ["b", "a", "a", "z"]);
    expect(out).not.toBe(map);
    expect(out.size).toBe(0);
    expect([...map.keys()]).toEqual(["a", "b"]);
  });

  it("deletes the keys from the map itself when others stay", () => {
    const map = new Map([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
    const out = withoutKeys(map, ["b", "z"]);
    expect(out).toBe(map);
    expect([...out]).toEqual([
      ["a", 1],
      ["c", 3],
    ]);
  });

  it("keeps exactly the entries whose keys are not forgotten, in their order", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 3 }), { maxLength: 12 }),
        fc.array(fc.string({ maxLength: 3 }), { maxLength: 12 }),
        (keys, forgotten) => {
          const map = new Map(keys.map((k, i) => [k, i]));
          const gone = new Set(forgotten);
          const expected = keys.filter((k) => !gone.has(k)).map((k) => [k, keys.indexOf(k)]);
          expect([...withoutKeys(map, forgotten)]).toEqual(expected);
        },
      ),
    );
  });
});
