// The content of a flow resource (mcp/resources/flow-body.ts): the query object and the audit
// whole while they fit, and past the byte limit valid JSON that says what it left out.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { auditOf, flowDetail, wireToPlain } from "../../../interpreter/index";
import { flowResourceText, MAX_FLOW_RESOURCE_BYTES } from "../../../mcp/resources/flow-body";
import { lookUpFlow } from "../../../mcp/resources/flow-source";
import { fixture } from "./flow-fixture";

async function plannedRun(text: string) {
  const f = fixture();
  const flowId = await f.plan();
  await f.firstDone(flowId, text);
  const found = await lookUpFlow(f.source, flowId);
  if (found?.kind !== "run") throw new Error("the flow did not restore");
  return { run: found.loaded.run, clock: f.source.clock };
}

type Plain = Record<string, unknown>;

describe("flowResourceText", () => {
  it("is the query object and the audit of the flow while it fits", async () => {
    const { run, clock } = await plannedRun("done");
    const body = JSON.parse(flowResourceText(run, clock)) as Plain;
    expect(body).toEqual({ flow: wireToPlain(flowDetail(run)), audit: wireToPlain(auditOf(run, clock)) });
    expect(MAX_FLOW_RESOURCE_BYTES).toBe(1024 * 1024);
  });

  it("leaves the lists out past the limit and says so", async () => {
    const { run, clock } = await plannedRun("x".repeat(5000));
    const whole = flowResourceText(run, clock);
    const limit = 2000;
    const text = flowResourceText(run, clock, limit);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit);
    const body = JSON.parse(text) as { flow: Plain; audit: Plain; truncated: Plain };
    expect(body.truncated).toEqual({
      limit_bytes: limit,
      full_bytes: Buffer.byteLength(whole),
      omitted: expect.arrayContaining(["flow.step_outputs", "flow.records", "audit.trace"]),
    });
    expect(body.flow).toMatchObject({ flow_id: run.state.flow_id, current_step_id: "second", step_count: 2 });
    expect(body.flow.step_outputs).toBeUndefined();
    expect(body.audit).toMatchObject({ steps_completed: 1, total_steps: 2 });
    expect(body.audit.trace).toBeUndefined();
  });

  it("is always valid JSON, within the limit unless only the summary is left", async () => {
    const { run, clock } = await plannedRun("y".repeat(3000));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8000 }), (limit) => {
        const text = flowResourceText(run, clock, limit);
        const body = JSON.parse(text) as { flow: Plain; truncated?: Plain };
        expect(body.flow.flow_id).toBe(run.state.flow_id);
        if (body.truncated === undefined) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit);
        else if (!(body.truncated.omitted as string[]).includes("audit")) {
          expect(Buffer.byteLength(text)).toBeLessThanOrEqual(limit);
        }
      }),
    );
  });
});
