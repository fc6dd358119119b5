// The journaled stores' shared rule (interpreter/store/snapshot-policy.ts): a commit appends its
// delta while the journal stays below max(minimum, snapshot size), and writes a snapshot otherwise,
// for a finished flow, a new flow, or a flow whose sizes the store does not know.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  deltaToAppend,
  type JournalSizes,
  MIN_SNAPSHOT_SIZE,
  mayAppend,
} from "../../../interpreter/store/snapshot-policy";

const length = (delta: string): number => delta.length;

/** One commit of a simulated flow: its delta's size, whether it finishes, the new snapshot's size. */
const commit = fc.record({
  deltaSize: fc.integer({ min: 1, max: 400 }),
  finished: fc.boolean(),
  snapshotSize: fc.integer({ min: 1, max: 3000 }),
});

describe("snapshot policy", () => {
  it("is 256 KiB by default", () => {
    expect(MIN_SNAPSHOT_SIZE).toBe(262144);
    const sizes = { snapshot: 10, journal: MIN_SNAPSHOT_SIZE - 6 };
    expect(deltaToAppend({ delta: "abcde", finished: false }, sizes, length)).toBe("abcde");
    expect(deltaToAppend({ delta: "abcdef", finished: false }, sizes, length)).toBeNull();
  });

  it("writes a snapshot for a new flow, a finished flow, or unknown sizes", () => {
    const sizes = { snapshot: 100, journal: 0 };
    expect(deltaToAppend({ delta: null, finished: false }, sizes, length, 50)).toBeNull();
    expect(deltaToAppend({ delta: "d", finished: true }, sizes, length, 50)).toBeNull();
    expect(deltaToAppend({ delta: "d", finished: false }, null, length, 50)).toBeNull();
    expect(deltaToAppend({ delta: "d", finished: false }, undefined, length, 50)).toBeNull();
    expect(deltaToAppend({ delta: "d", finished: false }, sizes, length, 50)).toBe("d");
    expect(mayAppend({ delta: "d", finished: false })).toBe(true);
    expect(mayAppend({ delta: "d", finished: true })).toBe(false);
    expect(mayAppend({ delta: null, finished: false })).toBe(false);
  });

  it("counts the entry as the store measures it (a frame included)", () => {
    const framed = (delta: string): number => 8 + delta.length;
    const sizes = { snapshot: 10, journal: 90 };
    expect(deltaToAppend({ delta: "x", finished: false }, sizes, framed, 100)).toBe("x"); // 99 < 100
    expect(deltaToAppend({ delta: "xx", finished: false }, sizes, framed, 100)).toBeNull(); // 100
  });

  it("over any sequence of commits: snapshots exactly when appending would reach the limit, or the flow finished", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.array(commit, { maxLength: 60 }),
        (minimum, firstSnapshot, commits) => {
          let sizes: JournalSizes = { snapshot: firstSnapshot, journal: 0 };
          for (const c of commits) {
            const delta = "d".repeat(c.deltaSize);
            const limit = Math.max(minimum, sizes.snapshot);
            const appended = deltaToAppend({ delta, finished: c.finished }, sizes, length, minimum);
            const fits = sizes.journal + c.deltaSize < limit;
            expect(appended !== null).toBe(!c.finished && fits);
            sizes =
              appended === null
                ? { snapshot: c.snapshotSize, journal: 0 }
                : { snapshot: sizes.snapshot, journal: sizes.journal + c.deltaSize };
            // What a reader loads stays bounded: the journal never reaches the limit.
            expect(sizes.journal).toBeLessThan(Math.max(minimum, sizes.snapshot));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
