// The load harness's agent think time: each call waits an exponential draw of the mean first, the
// waits are counted, and no think time means no wait at all (the saturation curve).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CallLog, exponentialMs, type ToolCaller } from "../../bench/pg-scale-flow";

const echo: ToolCaller = { call: (tool) => Promise.resolve({ status: tool }) };

describe("agent think time", () => {
  it("waits an exponential draw of the mean before each call", async () => {
    const waits: number[] = [];
    const draws = [0, 0.5, 0.9];
    const log = new CallLog({
      meanMs: 1000,
      random: () => draws[waits.length]!,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    for (const tool of ["a", "b", "c"]) await log.timed(echo, tool, {});
    const expected = [0, 1000 * Math.LN2, 1000 * Math.log(10)];
    expect(waits).toHaveLength(3);
    for (const [i, ms] of waits.entries()) expect(ms).toBeCloseTo(expected[i]!, 6);
    expect(log.thinkMs).toBeCloseTo(waits.reduce((a, b) => a + b, 0));
    expect(log.calls).toBe(3);
  });

  it("does not wait without a think time", async () => {
    let slept = 0;
    const log = new CallLog({
      meanMs: 0,
      sleep: () => {
        slept += 1;
        return Promise.resolve();
      },
    });
    await log.timed(echo, "a", {});
    expect(slept).toBe(0);
    expect(log.thinkMs).toBe(0);
  });

  it("draws are non-negative and grow with the uniform draw", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        (u, v) => {
          const [lo, hi] = u <= v ? [u, v] : [v, u];
          expect(exponentialMs(500, lo)).toBeGreaterThanOrEqual(0);
          expect(exponentialMs(500, lo)).toBeLessThanOrEqual(exponentialMs(500, hi));
        },
      ),
    );
  });
});
