// The retry schedule of `stratumc ui --notify` (ui/notify/backoff.ts): every wait lies within the
// cap, the ceilings never fall and reach the cap, the jitter stays in [ceiling/2, ceiling], and a
// Retry-After is obeyed up to the cap.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffCeiling, backoffDelay, retryAfterMs } from "../../../ui/notify/backoff";

const policies = fc
  .record({ baseMs: fc.integer({ min: 1, max: 10_000 }), extra: fc.integer({ min: 0, max: 1_000_000 }) })
  .map(({ baseMs, extra }) => ({ baseMs, capMs: baseMs + extra }));

describe("the backoff schedule", () => {
  it("is bounded by the cap, never decreasing, and reaches the cap", () => {
    fc.assert(
      fc.property(policies, fc.integer({ min: 1, max: 200 }), (policy, n) => {
        let previous = 0;
        for (let retry = 0; retry < n; retry++) {
          const ceiling = backoffCeiling(policy, retry);
          expect(ceiling).toBeGreaterThanOrEqual(previous);
          expect(ceiling).toBeLessThanOrEqual(policy.capMs);
          expect(ceiling).toBeGreaterThanOrEqual(Math.min(policy.baseMs, policy.capMs));
          // It doubles until the cap.
          if (retry > 0 && previous < policy.capMs)
            expect(ceiling).toBe(Math.min(policy.capMs, previous * 2));
          previous = ceiling;
        }
        expect(backoffCeiling(policy, 1_100)).toBe(policy.capMs);
      }),
    );
  });

  it("jitters each wait within half the ceiling and the ceiling", () => {
    fc.assert(
      fc.property(
        policies,
        fc.nat(100),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (policy, retry, r) => {
          const ceiling = backoffCeiling(policy, retry);
          const delay = backoffDelay(policy, retry, r);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(ceiling);
          expect(backoffDelay(policy, retry, 0)).toBeLessThanOrEqual(delay);
        },
      ),
    );
  });

  it("obeys Retry-After in seconds or as a date, capped; ignores what it cannot read", () => {
    const policy = { baseMs: 1_000, capMs: 30_000 };
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("2", policy, now)).toBe(2_000);
    expect(retryAfterMs(" 0 ", policy, now)).toBe(0);
    expect(retryAfterMs("86400", policy, now)).toBe(30_000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", policy, now)).toBe(5_000);
    expect(retryAfterMs("Wed, 31 Dec 2025 00:00:00 GMT", policy, now)).toBe(0);
    expect(retryAfterMs("soon", policy, now)).toBeNull();
    expect(retryAfterMs("-3", policy, now)).toBeNull();
    expect(retryAfterMs(null, policy, now)).toBeNull();
    fc.assert(
      fc.property(fc.string(), (header) => {
        const ms = retryAfterMs(header, policy, now);
        if (ms !== null) {
          expect(ms).toBeGreaterThanOrEqual(0);
          expect(ms).toBeLessThanOrEqual(policy.capMs);
        }
      }),
    );
  });
});
