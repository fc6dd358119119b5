// Recordings beyond plain results and gate decisions: an attempt limit exhausted and routed by
// on_fail, an iteration loop, a skip by hand (all replayed exactly), and a sub-flow step (not
// replayable: the replay says so instead of guessing).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LineMap } from "../../../checker/index";
import { type FlowReplayReport, replayFlow, replayTarget } from "../../../fuzzer/index";
import { MemoryStore, type StratumApi } from "../../../interpreter/index";
import { fromJsonValue } from "../../../stdlib/index";
import { storedState } from "../../support/stored-flow";
import { edited, engineOver, lineOf } from "./record";

const SPEC = readFileSync(join(import.meta.dirname, "kinds.stratum.yaml"), "utf8");

type Plain = Record<string, unknown>;

async function record(flow: string, drive: (api: StratumApi, flowId: string, plan: Plain) => Promise<void>) {
  const store = new MemoryStore();
  const api = engineOver(store);
  const plan = (await api.plan({ spec: SPEC, flow, inputs: fromJsonValue({}) })) as unknown as Plain;
  const flowId = String(plan.flow_id ?? plan.parent_flow_id);
  await drive(api, flowId, plan);
  const state = await storedState(store, flowId);
  if (state === null) throw new Error("not stored");
  return state;
}

const v = (n: number) => fromJsonValue({ v: n });

async function replay(spec: string, state: Awaited<ReturnType<typeof record>>): Promise<FlowReplayReport> {
  const target = replayTarget(spec);
  if (target === null) throw new Error("the spec does not check");
  return replayFlow(target, state);
}

const status = async (p: Promise<unknown>) => ((await p) as Plain).status;

describe("replaying", () => {
  it("an exhausted step routed by on_fail, exactly", async () => {
    const state = await record("retry", async (api, flow_id) => {
      expect(await status(api.stepDone({ flow_id, step_id: "generate", result: v(0) }))).toBe(
        "ensure_failed",
      );
      expect(await status(api.stepDone({ flow_id, step_id: "generate", result: v(0) }))).toBe("execute_step");
      expect(await status(api.stepDone({ flow_id, step_id: "fix", result: v(1) }))).toBe("complete");
    });
    const same = await replay(SPEC, state);
    expect(same).toMatchObject({ divergence: null, unjudged: null, replayed: 2, reconstructed: 0 });
    // One more attempt: the recorded second rejection is no longer the last.
    const spec = edited("retries: 2", "retries: 3", SPEC);
    const more = await replay(spec, state);
    expect(more.divergence?.kind).toBe("behaviour_changed");
    expect(more.divergence?.step).toBe("generate");
  });

  it("an iteration loop, and a loop that now ends elsewhere at its exit_criterion", async () => {
    const state = await record("loop", async (api, flow_id) => {
      const step_id = "polish";
      expect(await status(api.iterationStart({ flow_id, step_id }))).toBe("iteration_started");
      expect(await status(api.iterationReport({ flow_id, step_id, result: v(1) }))).toBe(
        "iteration_continue",
      );
      expect(await status(api.iterationReport({ flow_id, step_id, result: v(3) }))).toBe("iteration_exit");
      expect(await status(api.stepDone({ flow_id, step_id, result: v(3) }))).toBe("execute_step");
      expect(await status(api.skipStep({ flow_id, step_id: "optional", reason: "not needed" }))).toBe(
        "complete",
      );
    });
    expect(await replay(SPEC, state)).toMatchObject({ divergence: null, unjudged: null, replayed: 2 });
    const spec = edited('exit_criterion: "result.v >= 3"', 'exit_criterion: "result.v >= 1"', SPEC);
    const report = await replay(spec, state);
    expect(report.divergence?.kind).toBe("iteration_changed");
    expect(new LineMap(spec).position(report.divergence?.range.start ?? -1).line).toBe(
      lineOf(spec, 'exit_criterion: "result.v >= 1"'),
    );
  });

  it("a skip by hand that the edited spec now makes by skip_if", async () => {
    const state = await record("loop", async (api, flow_id) => {
      const step_id = "polish";
      expect(await status(api.stepDone({ flow_id, step_id, result: v(3) }))).toBe("execute_step");
      expect(await status(api.skipStep({ flow_id, step_id: "optional", reason: "not needed" }))).toBe(
        "complete",
      );
    });
    expect((await replay(SPEC, state)).divergence).toBeNull();
    const spec = edited(
      'intent: "Optional extra"',
      'intent: "Optional extra"\n        skip_if: "True"',
      SPEC,
    );
    const report = await replay(spec, state);
    expect(report.divergence?.kind).toBe("step_skipped");
  });

  it("stops at a sub-flow step, unjudged, without a divergence", async () => {
    const state = await record("outer", async (api, flow_id, plan) => {
      const child = String(plan.child_flow_id);
      expect(child).not.toBe("");
      const finished = (await api.stepDone({
        flow_id: child,
        step_id: "work",
        result: v(1),
      })) as unknown as Plain;
      expect(finished.status).toBe("complete");
      // The agent hands the child's completion payload to the parent step.
      const result = fromJsonValue(finished);
      const r = (await api.stepDone({ flow_id, step_id: "child", result })) as unknown as Plain;
      expect(r.status, JSON.stringify(r)).toBe("execute_step");
    });
    const report = await replay(SPEC, state);
    expect(report.divergence).toBeNull();
    expect(report.unjudged).toContain("sub-flow step");
  });
});
