// The deterministic ports of the interpreter tests.
import { describe, expect, it } from "vitest";
import { MANUAL_CLOCK_EPOCH_MS, ManualClock } from "./manual-clock";
import { SequentialIds, UUID_V4 } from "./sequential-ids";

describe("ManualClock", () => {
  it("moves only when told, wall and monotonic together or the wall alone", () => {
    const clock = new ManualClock();
    expect([clock.wallMs(), clock.monoMs()]).toEqual([MANUAL_CLOCK_EPOCH_MS, 1_000]);
    clock.advance(250);
    expect([clock.wallMs(), clock.monoMs()]).toEqual([MANUAL_CLOCK_EPOCH_MS + 250, 1_250]);
    clock.advanceWall(120_000);
    expect([clock.wallMs(), clock.monoMs()]).toEqual([MANUAL_CLOCK_EPOCH_MS + 120_250, 1_250]);
    expect(() => clock.advance(-1)).toThrow("ManualClock.advance: -1 is not a non-negative duration");
  });
});

describe("SequentialIds", () => {
  it("hands out distinct lowercase UUID v4 strings in order", () => {
    const ids = new SequentialIds();
    const a = ids.newFlowId();
    const b = ids.newFlowId();
    expect(a).toBe("00000000-0000-4000-8000-000000000001");
    expect(b).toBe("00000000-0000-4000-8000-000000000002");
    expect(ids.issued).toBe(2);
    for (const id of [a, b]) expect(id).toMatch(UUID_V4);
  });

  it("keeps sources with different seeds apart", () => {
    const id = new SequentialIds(0xabc).newFlowId();
    expect(id).toBe("00000000-0000-4000-8abc-000000000001");
    expect(id).toMatch(UUID_V4);
    expect(() => new SequentialIds(0x1000)).toThrow("SequentialIds: seed 4096 is outside 0..0xfff");
  });
});
