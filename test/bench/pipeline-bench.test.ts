// The pipeline benches on a tiny size: both flows complete through the in-process MCP server, on
// the consumer path and the server path, and the baseline carries as many tasks as the pipeline
// unfolds (the same agent work on both sides).
import { describe, expect, it } from "vitest";
import { benchPipeline } from "../../bench/pipeline-bench";
import { benchPipelineServer } from "../../bench/pipeline-server-bench";

describe("pipeline bench", () => {
  it("runs both flows to completion with the same number of tasks", async () => {
    const bench = await benchPipeline({ items: 4, rounds: 2, warmup: 0 });
    expect(bench.pipelineTasks).toBe(12);
    expect(bench.parallelTasks).toBe(12);
    // The pipeline's tasks carry the stage settings and dependencies the parallel ones do not.
    expect(bench.pipelinePayloadBytes).toBeGreaterThan(bench.parallelPayloadBytes);
    expect(bench.rows).toHaveLength(3);
    for (const row of bench.rows) {
      expect(row.median).toBeGreaterThan(0);
      expect(row.baseline).toBeGreaterThan(0);
      expect(row.ratio).toBeCloseTo(row.median / (row.baseline ?? 1));
    }
  });

  it("runs both flows server-side to completion, each with as many agent tasks", async () => {
    // The bench itself throws when a flow does not complete or runs another number of tasks.
    const rows = await benchPipelineServer({ items: 4, rounds: 2, warmup: 0 });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.median).toBeGreaterThan(0);
    expect(rows[0]?.baseline).toBeGreaterThan(0);
  });
});
