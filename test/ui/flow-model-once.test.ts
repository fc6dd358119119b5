// A long flow's page parts that scan its whole spec text (the spec window around the current
// step, the gate's review with its spec excerpt) are made once per read of the flow, not once per
// page of steps or records the page asks for: before, every window of a 10,000-step flow waiting at
// its gate re-scanned the 880 KB spec (~95 ms an answer; now well under a millisecond).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { composeHostLazily } from "../../host/index";
import { FlowSource } from "../../ui/flow-source";
import { writeBigFlow } from "../hostile/ui-support";

const home = mkdtempSync(join(tmpdir(), "stratumc-ui-model-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("the pages of one long flow", () => {
  it("share the spec window and the gate review made at its read", async () => {
    const flowId = writeBigFlow(home, 400);
    const host = await composeHostLazily({ cwd: home, env: { ...process.env, STRATUM_HOME: home } });
    const source = new FlowSource(host);
    const first = await source.page(flowId, {});
    const earlier = await source.page(flowId, { stepsOffset: 100, auditOffset: 0 });
    if (first.kind !== "ok" || earlier.kind !== "ok") throw new Error("the flow did not load");
    expect(first.value.steps_offset).toBe(300);
    expect(earlier.value.steps_offset).toBe(100);
    expect(first.value.review?.gate_step_id).toBe("approve");
    expect(first.value.spec.current_step_line).not.toBeNull();
    expect(earlier.value.review).toBe(first.value.review);
    expect(earlier.value.spec).toBe(first.value.spec);
  });
});
