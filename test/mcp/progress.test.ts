// MCP progress (mcp/progress.ts, mcp/fuzz-progress.ts): the token a request carries, the throttle
// that keeps notifications rising and few but never drops the first or the last, the reporter's
// timer and its silence after a cancel, the heartbeat of calls with nothing to count, and what a
// fuzz job's progress says.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzJobProgress } from "../../mcp/fuzz-progress";
import {
  type Progress,
  ProgressThrottle,
  progressReporter,
  progressTokenOf,
  withHeartbeat,
} from "../../mcp/progress";

const INTERVAL = 250;

describe("progressTokenOf", () => {
  it("reads a string or integer token, and nothing else", () => {
    expect(progressTokenOf({ progressToken: "t1" })).toBe("t1");
    expect(progressTokenOf({ progressToken: 7 })).toBe(7);
    for (const meta of [undefined, null, [], "x", {}, { progressToken: 1.5 }, { progressToken: null }]) {
      expect(progressTokenOf(meta)).toBeUndefined();
    }
  });
});

/** Offers each report after its delay, then flushes: what went out, with the times. */
function drive(offers: readonly { progress: number; afterMs: number }[]): { at: number; p: Progress }[] {
  const throttle = new ProgressThrottle(INTERVAL);
  const out: { at: number; p: Progress }[] = [];
  let now = 1_000;
  for (const o of offers) {
    now += o.afterMs;
    const sent = throttle.offer({ progress: o.progress }, now);
    if (sent !== null) out.push({ at: now, p: sent });
  }
  const last = throttle.flush(now);
  if (last !== null) out.push({ at: now, p: last });
  return out;
}

const offersArb = fc.array(
  fc.record({ progress: fc.integer({ min: -5, max: 10_000 }), afterMs: fc.integer({ min: 0, max: 400 }) }),
  { maxLength: 200 },
);

describe("ProgressThrottle", () => {
  it("sends strictly rising progress, the first report at once, at most one per interval before the last", () => {
    fc.assert(
      fc.property(offersArb, (offers) => {
        const out = drive(offers);
        for (let i = 1; i < out.length; i++) {
          expect(out[i]?.p.progress).toBeGreaterThan(out[i - 1]?.p.progress as number);
        }
        // All but the final flush are at least an interval apart.
        for (let i = 1; i < out.length - 1; i++) {
          expect((out[i]?.at as number) - (out[i - 1]?.at as number)).toBeGreaterThanOrEqual(INTERVAL);
        }
        if (offers.length > 0) expect(out[0]?.p.progress).toBe(offers[0]?.progress);
      }),
    );
  });

  it("keeps the last report of a rising sequence, whatever was held back", () => {
    fc.assert(
      fc.property(offersArb, (offers) => {
        let level = 0;
        const rising = offers.map((o) => {
          level += Math.abs(o.progress) % 7;
          return { ...o, progress: level };
        });
        const out = drive(rising);
        if (rising.length > 0) expect(out.at(-1)?.p.progress).toBe(rising.at(-1)?.progress);
        // Never more than one per interval, plus the first and the last.
        const span = rising.reduce((sum, o) => sum + o.afterMs, 0);
        expect(out.length).toBeLessThanOrEqual(Math.floor(span / INTERVAL) + 2);
      }),
    );
  });
});

describe("progressReporter", () => {
  it("sends a held report on its timer, the last at finish, and nothing after a cancel or finish", async () => {
    const sent: number[] = [];
    const cancel = new AbortController();
    let clock = 0;
    const reporter = progressReporter((p) => sent.push(p.progress), {
      intervalMs: 40,
      now: () => clock,
      signal: cancel.signal,
    });
    reporter.report({ progress: 1 });
    reporter.report({ progress: 2 });
    reporter.report({ progress: 3 });
    expect(sent).toEqual([1]);
    await until(() => sent.length === 2);
    expect(sent).toEqual([1, 3]);
    clock = 100;
    reporter.report({ progress: 4 });
    reporter.report({ progress: 5 });
    cancel.abort();
    reporter.report({ progress: 6 });
    reporter.finish();
    await new Promise((r) => setTimeout(r, 100));
    expect(sent).toEqual([1, 3, 4]);

    const finished: number[] = [];
    const other = progressReporter((p) => finished.push(p.progress), { intervalMs: 10_000 });
    other.report({ progress: 1 });
    other.report({ progress: 9 });
    other.finish();
    other.report({ progress: 10 });
    expect(finished).toEqual([1, 9]);
  });
});

async function until(done: () => boolean): Promise<void> {
  const end = Date.now() + 5_000;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("withHeartbeat", () => {
  it("reports rising beats while the work runs, and none without a reporter", async () => {
    const reports: Progress[] = [];
    let finished = 0;
    const reporter = { report: (p: Progress) => reports.push(p), finish: () => finished++ };
    const value = await withHeartbeat(
      reporter,
      "agent",
      () => new Promise((r) => setTimeout(() => r(42), 400)),
      30,
    );
    expect(value).toBe(42);
    expect(reports.length).toBeGreaterThanOrEqual(2);
    expect(reports.map((r) => r.progress)).toEqual(reports.map((_, i) => i + 1));
    expect(reports[0]?.message).toMatch(/^agent: running for \d+ s$/);
    expect(reports[0]?.total).toBeUndefined();
    expect(finished).toBe(1);
    const count = reports.length;
    await new Promise((r) => setTimeout(r, 80));
    expect(reports).toHaveLength(count);
    expect(await withHeartbeat(undefined, "agent", () => Promise.resolve(1), 1)).toBe(1);
  });
});

describe("fuzzJobProgress", () => {
  it("counts random runs of runs × flows, and says where the job is", () => {
    expect(fuzzJobProgress({ kind: "progress", phase: "checking" }, 60)).toEqual({
      progress: 0,
      message: "checking the spec",
    });
    const base = { kind: "progress", phase: "fuzzing", runs: 75, paths: 12, findings: 1 } as const;
    expect(fuzzJobProgress({ ...base, flowsDone: 1, flows: 3, flow: "b" }, 60)).toEqual({
      progress: 75,
      total: 180,
      message: "exploring flow 'b' (1 of 3 flow(s) done): 75 run(s), 12 path(s), 1 finding(s)",
    });
    expect(fuzzJobProgress({ ...base, flowsDone: 3, flows: 3, flow: null }, 60).message).toMatch(
      /^finishing the report of 3 flow\(s\)/,
    );
  });
});
