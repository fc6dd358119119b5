// The fuzz bench's repeating pass: each engine call is made on the exploration's transport and
// again on a second one with the same arguments; the exploration sees the first answer, audits go
// to the first transport only, and a second engine that answers otherwise stops the measurement.
import { describe, expect, it } from "vitest";
import { type Repeats, repeating } from "../../bench/fuzz-bench";
import type { Plain, ToolName, Transport } from "../../fuzzer/run/session";

function fake(log: [ToolName, Plain][], answer: (tool: ToolName) => Plain): Transport {
  return async (tool, args) => {
    log.push([tool, args]);
    return { response: answer(tool), events: null };
  };
}

describe("fuzz bench repeating pass", () => {
  it("makes each call on both engines, audits on the first only, and answers the first", async () => {
    const first: [ToolName, Plain][] = [];
    const second: [ToolName, Plain][] = [];
    const t: Repeats = { firstMs: 0, againMs: 0 };
    const transport = repeating(
      fake(first, (tool) => ({ tool, who: "same" })),
      fake(second, (tool) => ({ tool, who: "same" })),
      t,
    );
    const args = { flow_id: "f", step_id: "s", result: { ok: true } };
    const answer = await transport("stratum_step_done", args);
    await transport("stratum_audit", { flow_id: "f" });
    expect(answer.response).toEqual({ tool: "stratum_step_done", who: "same" });
    expect(first.map(([tool]) => tool)).toEqual(["stratum_step_done", "stratum_audit"]);
    expect(second).toEqual([["stratum_step_done", args]]);
    // The second engine gets the very arguments, not a copy.
    expect(second[0]![1]).toBe(first[0]![1]);
    expect(t.firstMs).toBeGreaterThanOrEqual(0);
    expect(t.againMs).toBeGreaterThanOrEqual(0);
  });

  it("starts each run on both engines, so that both forget the run before alike", () => {
    const started: string[] = [];
    const withRuns = (name: string) =>
      Object.assign(
        fake([], () => ({})),
        { newRun: () => started.push(name) },
      );
    const transport = repeating(withRuns("first"), withRuns("second"), { firstMs: 0, againMs: 0 });
    transport.newRun?.();
    expect(started).toEqual(["first", "second"]);
  });

  it("stops when the second engine answers otherwise", async () => {
    const transport = repeating(
      fake([], () => ({ status: "ok" })),
      fake([], () => ({ status: "error" })),
      { firstMs: 0, againMs: 0 },
    );
    await expect(transport("stratum_plan", { spec: "x", flow: "f" })).rejects.toThrow(/differently/);
  });
});
