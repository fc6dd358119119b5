// The benchmark's helpers: paired corpus timing (what is called, in which order, what is reported)
// and the result table (ratio targets, PASS/FAIL).
import { describe, expect, it } from "vitest";
import { measurePaired, medianRatio } from "../../bench/lib/paired";
import { printTable, type Row, rowStatus } from "../../bench/lib/table";

describe("measurePaired", () => {
  it("runs both functions on every text once per round, alternating which goes first", () => {
    const calls: string[] = [];
    const texts = ["a", "b", "c"];
    const m = measurePaired(
      texts,
      (t) => calls.push(`ours:${t}`),
      (t) => calls.push(`base:${t}`),
      3,
      1,
    );
    expect(calls.length).toBe(2 * texts.length * 4);
    // Round -1 (warm-up): base first for a and c, ours first for b; round 0 flips the order.
    expect(calls.slice(0, 6)).toEqual(["base:a", "ours:a", "ours:b", "base:b", "base:c", "ours:c"]);
    expect(calls.slice(6, 12)).toEqual(["ours:a", "base:a", "base:b", "ours:b", "ours:c", "base:c"]);
    expect(m.oursNs).toHaveLength(3);
    expect(m.baseNs).toHaveLength(3);
    expect(m.rounds).toBe(3);
    for (const x of [...m.oursNs, ...m.baseNs, m.oursTotalMs, m.baseTotalMs]) expect(x).toBeGreaterThan(0);
  });

  it("measures a slower function as slower", () => {
    const spin = (n: number) => {
      let x = 0;
      for (let i = 0; i < n; i++) x += Math.sqrt(i);
      return x;
    };
    const m = measurePaired(
      ["t"],
      () => spin(200_000),
      () => spin(2_000),
      5,
    );
    expect(m.oursNs[0]!).toBeGreaterThan(m.baseNs[0]!);
    expect(m.oursTotalMs).toBeGreaterThan(m.baseTotalMs);
  });

  it("medianRatio is the median of the per-text ratios", () => {
    expect(medianRatio([2, 9, 30], [1, 3, 10])).toBe(3);
    expect(medianRatio([1, 4], [1, 1])).toBe(2.5);
  });
});

describe("result table", () => {
  const row = (r: Partial<Row>): Row => ({
    metric: "m",
    median: 10,
    baseline: 8,
    ratio: 1.25,
    target: null,
    ...r,
  });

  it("judges a ratio target by the ratio and a median target by the median", () => {
    expect(rowStatus(row({ targetRatio: 1.3 }))).toBe("PASS");
    expect(rowStatus(row({ ratio: 1.31, targetRatio: 1.3 }))).toBe("FAIL");
    expect(rowStatus(row({ ratio: null, targetRatio: 1.3 }))).toBe("FAIL");
    expect(rowStatus(row({ target: 10 }))).toBe("PASS");
    expect(rowStatus(row({ target: 9.9 }))).toBe("FAIL");
    expect(rowStatus(row({}))).toBe("");
  });

  it("prints aligned columns with the target and status", () => {
    const text = printTable([
      row({ metric: "cold start ms", median: 120.4, baseline: 61.2, ratio: 1.967, targetRatio: 1.3 }),
      row({ metric: "parse µs", median: 1.5, baseline: null, ratio: null, target: 3 }),
    ]);
    expect(text.split("\n")).toEqual([
      "metric         median  baseline  ratio  target  status",
      "-------------  ------  --------  -----  ------  ------",
      "cold start ms     120      61.2  1.97x  ≤ 1.3x    FAIL",
      "parse µs        1.500         -      -     ≤ 3    PASS",
      "",
    ]);
  });
});
