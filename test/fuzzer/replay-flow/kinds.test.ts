// Recordings beyond plain results and gate decisions: an attempt limit exhausted and routed by
// on_fail, an iteration loop, a skip by hand (all replayed exactly), and a sub-flow step (replayed
// through its child flow's recording when the child is given; else unjudged, and the replay says
// why instead of guessing).
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

  /** The outer flow run to its end through its child; the stored parent and child. */
  async function recordOuter() {
    let childId = "";
    const store = new MemoryStore();
    const api = engineOver(store);
    const plan = (await api.plan({
      spec: SPEC,
      flow: "outer",
      inputs: fromJsonValue({}),
    })) as unknown as Plain;
    const flow_id = String(plan.flow_id ?? plan.parent_flow_id);
    childId = String(plan.child_flow_id);
    expect(childId).not.toBe("");
    const finished = (await api.stepDone({
      flow_id: childId,
      step_id: "work",
      result: v(1),
    })) as unknown as Plain;
    expect(finished.status).toBe("complete");
    // The agent hands the child's completion payload to the parent step.
    const r = (await api.stepDone({
      flow_id,
      step_id: "child",
      result: fromJsonValue(finished),
    })) as unknown as Plain;
    expect(r.status, JSON.stringify(r)).toBe("execute_step");
    expect(await status(api.stepDone({ flow_id, step_id: "after", result: v(2) }))).toBe("complete");
    const parent = await storedState(store, flow_id);
    const child = await storedState(store, childId);
    if (parent === null || child === null) throw new Error("not stored");
    return { parent, children: new Map([[childId, child]]), childId };
  }

  it("a sub-flow step whose child flow is not given stops the replay, unjudged, and says so", async () => {
    const { parent, childId } = await recordOuter();
    const report = await replay(SPEC, parent);
    expect(report.divergence).toBeNull();
    expect(report.unjudged).toContain(`a sub-flow step whose child flow ${childId} is not in the store`);
  });

  it("a sub-flow step through its child's recording: no divergence on the same spec", async () => {
    const { parent, children } = await recordOuter();
    const target = replayTarget(SPEC)!;
    const report = await replayFlow(target, parent, children);
    expect(report).toMatchObject({
      divergence: null,
      unjudged: null,
      entries: 2,
      replayed: 2,
      reconstructed: 0,
    });
  });

  it("a divergence inside the child names the child flow and its step, placed in the child", async () => {
    const { parent, children } = await recordOuter();
    const spec = edited('intent: "Work"', 'intent: "Work"\n        ensure: ["result.v > 5"]', SPEC);
    const report = await replayFlow(replayTarget(spec)!, parent, children);
    expect(report.divergence).toMatchObject({
      kind: "result_rejected",
      step: "work",
      child: { flow: "leaf", parentFlow: "outer", parentStep: "child" },
    });
    expect(report.divergence?.message).toBe(
      "in sub-flow 'leaf' (step 'child' of flow 'outer'): the recorded result of step 'work' is now rejected: ensure 'result.v > 5' failed",
    );
    expect(new LineMap(spec).position(report.divergence?.range.start ?? -1).line).toBe(
      lineOf(spec, 'ensure: ["result.v > 5"]'),
    );
  });

  it("a change of the parent after the sub-flow step is the parent's divergence", async () => {
    const { parent, children } = await recordOuter();
    const spec = edited('intent: "After"', 'intent: "After"\n        ensure: ["result.v > 5"]', SPEC);
    const report = await replayFlow(replayTarget(spec)!, parent, children);
    expect(report.divergence).toMatchObject({ kind: "result_rejected", step: "after", child: null });
  });
});
