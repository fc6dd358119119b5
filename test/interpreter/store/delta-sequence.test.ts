// The journal readers' one sequence rule (interpreter/store/delta-sequence.ts) and its wording.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sequenceGap } from "../../../interpreter/store/delta-sequence";

describe("delta sequence", () => {
  it("accepts the next revision and words any other", () => {
    expect(sequenceGap(5, 4)).toBeNull();
    expect(sequenceGap(4, 4)).toBe("has revision 4, 5 expected");
    expect(sequenceGap(7, 4)).toBe("has revision 7, 5 expected");
    expect(sequenceGap(0, 4)).toBe("has revision 0, 5 expected");
  });

  it("is null exactly when the revision is the one after the previous", () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), (revision, previous) => {
        const gap = sequenceGap(revision, previous);
        expect(gap === null).toBe(revision === previous + 1);
        if (gap !== null) expect(gap).toBe(`has revision ${revision}, ${previous + 1} expected`);
      }),
    );
  });
});
