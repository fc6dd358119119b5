// The time budget as every phase of the fuzzer keeps it (fuzz-spec.ts): flows the deadline reached
// before they were explored get no verdict and no finding (a dead step least of all), the report
// says the budget cut it short, and a fuzz without a budget is not touched by any of it. The clock
// is injected, so nothing here depends on the machine's speed.
import { describe, expect, it } from "vitest";
import { longFlowSpec, manyFlowsSpec } from "../../bench/lib/heavy-specs";
import { type FuzzProgress, fuzzSpec } from "../../fuzzer/fuzz-spec";

/** A clock that reads 0 until `expire` says so from a progress report, then the deadline's time. */
function clockExpiringWhen(expire: (p: FuzzProgress) => boolean) {
  let expired = false;
  return {
    now: () => (expired ? 1_000 : 0),
    deadlineAt: 1_000,
    onProgress: (p: FuzzProgress) => {
      if (expire(p)) expired = true;
    },
  };
}

describe("the fuzzer's time budget", () => {
  it("a deadline already past: every flow is left unexplored, with no verdict and no finding", async () => {
    const { report } = await fuzzSpec(manyFlowsSpec(5), {
      ...clockExpiringWhen(() => true),
      now: () => 1_000,
      runs: 10,
    });
    expect(report).toMatchObject({ runs: 0, paths: 0, exhaustive: false, stoppedByDeadline: true });
    expect(report?.notExplored).toEqual(["f0", "f1", "f2", "f3", "f4"]);
    expect(report?.soundness).toEqual({});
    // A step of a flow nothing ran is not dead: the absence analysis must not say so.
    expect(report?.findings).toEqual([]);
  });

  it("the flows explored before the deadline keep their verdicts; the rest are listed, never judged", async () => {
    const full = await fuzzSpec(manyFlowsSpec(4), { runs: 5 });
    // The deadline passes once the first flow is done.
    const cut = await fuzzSpec(manyFlowsSpec(4), { ...clockExpiringWhen((p) => p.flowsDone >= 1), runs: 5 });
    const judged = Object.keys(cut.report?.soundness ?? {});
    expect(judged).toEqual(["f0"]);
    expect(cut.report?.soundness.f0).toEqual(full.report?.soundness.f0);
    const ofF0 = (r: typeof full) => r.report?.findings.filter((f) => f.flow === "f0");
    expect(ofF0(cut)).toEqual(ofF0(full));
    expect([...judged, ...(cut.report?.notExplored ?? [])].sort()).toEqual(["f0", "f1", "f2", "f3"]);
    expect(cut.report?.stoppedByDeadline).toBe(true);
    expect(cut.report?.exhaustive).toBe(false);
    for (const f of cut.report?.findings ?? []) expect(judged).toContain(f.flow);
    expect(full.report?.stoppedByDeadline).toBe(false);
    expect(full.report?.notExplored).toEqual([]);
  });

  it("a budget that is never reached changes nothing: same report as without one", async () => {
    const spec = longFlowSpec(3);
    const without = await fuzzSpec(spec, { runs: 20 });
    const generous = await fuzzSpec(spec, { runs: 20, timeBudgetMs: 1, now: () => 0 });
    expect(generous.report).toEqual(without.report);
    expect(without.report?.stoppedByDeadline).toBe(false);
  });

  it("with no time left to shrink or minimize, no finding is claimed that the full fuzz does not make", async () => {
    // The deadline passes with the last random run: witnesses stay as the runs showed them, and a
    // finding whose raw witness skips a step by hand is dropped (it may be the human's doing).
    const spec = longFlowSpec(3);
    const full = await fuzzSpec(spec, { runs: 100 });
    const cut = await fuzzSpec(spec, { ...clockExpiringWhen((p) => p.runs >= 100), runs: 100 });
    expect(cut.report).toMatchObject({ runs: 100, stoppedByDeadline: true, notExplored: [] });
    const place = (f: { code: string; line: number; column: number }) => `${f.code}@${f.line}:${f.column}`;
    const fullPlaces = new Set(full.report?.findings.map(place));
    expect(fullPlaces.size).toBeGreaterThan(0);
    for (const f of cut.report?.findings ?? []) {
      expect(fullPlaces).toContain(place(f));
      expect(f.counterexample?.calls.some((c) => c.tool === "stratum_skip_step")).not.toBe(true);
    }
  });
});
