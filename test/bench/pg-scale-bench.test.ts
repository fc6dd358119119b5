// The team-store load harness at a tiny size (one server, two flows, over stdio, over HTTP and over HTTP with a connection per call): every
// flow completes through the built servers on a real PostgreSQL with no error, each tool is timed,
// PostgreSQL's counters are read, and the many-writers race leaves no stale_state unexplained.
import { describe, expect, it } from "vitest";
import { benchPgScale, parsePoints, pgScaleRows } from "../../bench/pg-scale-bench";
import { CALLS_PER_FLOW } from "../../bench/pg-scale-flow";
import { type Call, unexplainedStale } from "../../bench/pg-scale-writers";
import { ensureBundle, REPO } from "../cli/run-cli";

describe("pg scale bench", () => {
  it("drives every flow to completion over stdio and HTTP and reads PostgreSQL's counters", async () => {
    ensureBundle();
    const summary = await benchPgScale(REPO, {
      points: [
        { servers: 1, flows: 2, transport: "stdio", thinkMs: 0 },
        { servers: 1, flows: 2, transport: "http", thinkMs: 0 },
        { servers: 1, flows: 2, transport: "http-close", thinkMs: 0 },
        { servers: 1, flows: 2, transport: "stdio", thinkMs: 20 },
      ],
      writerFlows: 2,
    });
    for (const point of summary.points) {
      expect(point.errors).toEqual([]);
      expect(point.completed).toBe(2);
      expect(point.calls).toBe(2 * CALLS_PER_FLOW);
      expect(point.tools.map((t) => t.tool)).toEqual([
        "stratum_gate_resolve",
        "stratum_parallel_done",
        "stratum_plan",
        "stratum_resume",
        "stratum_step_done",
      ]);
      expect(point.tools.find((t) => t.tool === "stratum_step_done")?.calls).toBe(2 * 4);
      expect(point.connectionsMax).toBeGreaterThan(0);
      expect(point.commitsPerCall).toBeGreaterThan(0);
      expect(point.walSyncPerCall).toBeGreaterThan(0);
      expect(point.cpuMsPerCall.servers).toBeGreaterThan(0);
      expect(point.cpuMsPerCall.clients).toBeGreaterThan(0);
      expect(point.idleCpuMsPerSecond).toBeGreaterThanOrEqual(0);
      // Offered load is stated only where agents think: 2 flows every 20 ms is 100 calls/s.
      expect(point.offeredCallsPerSecond).toBe(point.thinkMs > 0 ? 100 : Number.POSITIVE_INFINITY);
    }
    expect(summary.writers.flows).toBe(2);
    expect(summary.writers.errors).toEqual([]);
    expect(summary.writers.unexplainedStale).toBe(0);
    expect(summary.writers.resolves).toBeGreaterThanOrEqual(2);
    // A polling agent can starve a resolution (measured, not an error); never more than the flows.
    expect(summary.writers.resolutionsGivenUp).toBeLessThanOrEqual(2);
    const errorRows = pgScaleRows(summary).filter((r) => r.metric.endsWith(": errors"));
    expect(errorRows.map((r) => r.median)).toEqual([0, 0, 0, 0]);
  }, 120_000);

  it("reads the points of STRATUMC_PG_SCALE and refuses others", () => {
    expect(parsePoints("50x500, 4x200http,2x3httpclose@250")).toEqual([
      { servers: 50, flows: 500, transport: "stdio", thinkMs: 0 },
      { servers: 4, flows: 200, transport: "http", thinkMs: 0 },
      { servers: 2, flows: 3, transport: "http-close", thinkMs: 250 },
    ]);
    // STRATUMC_PG_SCALE_THINK_MS is the think time of the points that name none.
    expect(parsePoints("20x200,20x200@0", 5000).map((p) => p.thinkMs)).toEqual([5000, 0]);
    expect(() => parsePoints("50by500")).toThrow(/not NxM/);
    expect(() => parsePoints("0x5")).toThrow(/out of range/);
    expect(() => parsePoints("1x5@700000")).toThrow(/out of range/);
  });
});

describe("unexplained stale_state answers", () => {
  const call = (side: Call["side"], t0: number, t1: number, status: string): Call => ({
    side,
    t0,
    t1,
    status,
  });

  it("are explained only by an overlapping write of the other side", () => {
    const refusedResolve = call("resolve", 10, 20, "error:stale_state");
    // A poll that overlapped it, when polls write: explained.
    expect(unexplainedStale([refusedResolve, call("poll", 15, 25, "await_gate")], true)).toBe(0);
    // The same poll when polls do not write: unexplained.
    expect(unexplainedStale([refusedResolve, call("poll", 15, 25, "await_gate")], false)).toBe(1);
    // A write that ended before the refused call began: unexplained.
    expect(unexplainedStale([refusedResolve, call("poll", 0, 10, "await_gate")], true)).toBe(1);
    // A call of the same side, or a refused one of the other side, explains nothing.
    expect(unexplainedStale([refusedResolve, call("resolve", 12, 18, "execute_step")], true)).toBe(1);
    expect(unexplainedStale([refusedResolve, call("poll", 12, 18, "error:stale_state")], true)).toBe(2);
    // A refused poll overlapped by the resolution: explained whatever polls do.
    expect(
      unexplainedStale(
        [call("poll", 5, 9, "error:stale_state"), call("resolve", 8, 12, "execute_step")],
        false,
      ),
    ).toBe(0);
  });
});
