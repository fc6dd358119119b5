// The structural diff the gate review shows (ui/json-diff.ts): what it reports for known pairs, a
// value against itself reports nothing, and the reported changes turn the old value into the new.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonChange, jsonDiff } from "../../ui/json-diff";

/** The old value with the changes applied, in order (a copy). */
function applyJsonDiff(before: unknown, changes: readonly JsonChange[]): unknown {
  const root: { value: unknown } = { value: structuredClone(before) };
  for (const change of changes) {
    let parent: unknown = root;
    let key: string | number = "value";
    for (const step of change.path) {
      parent = (parent as Record<string | number, unknown>)[key];
      key = step;
    }
    if (change.op === "removed") {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete (parent as Record<string, unknown>)[key];
    } else if (Array.isArray(parent)) parent[key as number] = change.value;
    else
      Object.defineProperty(parent, key, {
        value: change.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return root.value;
}

describe("jsonDiff", () => {
  it("reports added, removed and changed paths in document order", () => {
    const { changes, more } = jsonDiff(
      { title: "a", tags: ["x", "y", "z"], meta: { n: 1, gone: true } },
      { title: "b", tags: ["x", "q"], meta: { n: 1, extra: null } },
    );
    expect(more).toBe(false);
    expect(changes).toEqual([
      { op: "changed", path: ["title"], old: "a", value: "b" },
      { op: "changed", path: ["tags", 1], old: "y", value: "q" },
      { op: "removed", path: ["tags", 2], value: "z" },
      { op: "removed", path: ["meta", "gone"], value: true },
      { op: "added", path: ["meta", "extra"], value: null },
    ]);
  });

  it("reports a change of kind at the path where it happens, the root included", () => {
    expect(jsonDiff({ a: [1] }, { a: { 0: 1 } }).changes).toEqual([
      { op: "changed", path: ["a"], old: [1], value: { 0: 1 } },
    ]);
    expect(jsonDiff(1, "1").changes).toEqual([{ op: "changed", path: [], old: 1, value: "1" }]);
  });

  it("ignores object key order and stops at the limit, saying more were left out", () => {
    expect(jsonDiff({ a: 1, b: 2 }, { b: 2, a: 1 }).changes).toEqual([]);
    const many = jsonDiff(
      Array.from({ length: 50 }, (_, i) => i),
      Array.from({ length: 50 }, (_, i) => -i - 1),
      10,
    );
    expect(many.changes).toHaveLength(10);
    expect(many.more).toBe(true);
  });

  it("handles nesting deeper than the call stack would allow", () => {
    let a: unknown = 1;
    let b: unknown = 2;
    for (let i = 0; i < 20_000; i++) {
      a = [a];
      b = [b];
    }
    const { changes } = jsonDiff(a, b);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.path).toHaveLength(20_000);
  });

  const json = fc.jsonValue({ maxDepth: 4 });

  it("reports nothing for a value against itself (property)", () => {
    fc.assert(
      fc.property(json, (v) => {
        expect(jsonDiff(v, structuredClone(v)).changes).toEqual([]);
      }),
    );
  });

  it("gives changes that turn the old value into the new one (property)", () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        const { changes, more } = jsonDiff(a, b);
        expect(more).toBe(false);
        expect(applyJsonDiff(a, changes)).toEqual(b);
      }),
    );
  });

  it("gives changes that turn the old value into the new one for related values (property)", () => {
    // Random pairs rarely share structure; an edited copy exercises the nested paths.
    const edited = json.chain((a) =>
      fc.tuple(fc.constant(a), json).map(([base, other]) => {
        if (typeof base !== "object" || base === null) return [base, other] as const;
        const copy = structuredClone(base) as Record<string, unknown>;
        const keys = Object.keys(copy);
        if (keys.length > 0) copy[keys[0] as string] = other;
        return [base, copy] as const;
      }),
    );
    fc.assert(
      fc.property(edited, ([a, b]) => {
        expect(applyJsonDiff(a, jsonDiff(a, b).changes)).toEqual(b);
      }),
    );
  });
});
