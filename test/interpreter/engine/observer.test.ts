// The engine's observer (interpreter/engine/observe.ts): the events of committed calls only, read
// from the flows before and after each call.
import { describe, expect, it } from "vitest";
import { spanOf } from "../../../host/tracing/spans";
import type { FlowEvent } from "../../../interpreter/engine/observer";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { parseJson } from "../../../stdlib/values/json";
import { TRACED_SPEC } from "../../host/tracing/fixtures";
import { makeObservedApi } from "../support/observed-api";

/** The events without the parts every event has, for readable expectations. */
function brief(events: readonly FlowEvent[]): string[] {
  return events.map((e) => {
    const step = "step_id" in e ? ` ${e.step_id}` : "";
    const attempt = "attempt" in e ? `#${e.attempt}` : "";
    const detail =
      e.type === "step_finished"
        ? ` ${e.outcome}${e.failure === null ? "" : `/${e.failure}`}`
        : e.type === "gate_resolved"
          ? ` ${e.outcome} by ${e.resolved_by}`
          : e.type === "flow_finished"
            ? ` ${e.status}`
            : "";
    return `${e.type} ${e.flow_name}${step}${attempt}${detail}`;
  });
}

describe("the events of a flow with a retry, a sub-flow and a gate", () => {
  it("follow the calls, with attempts, violations, the gate's resolution and one root", async () => {
    const h = makeObservedApi(new MemoryStore());
    const plan = await h.api.plan({ spec: TRACED_SPEC, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    expect(brief(h.take())).toEqual(["flow_started main", "step_dispatched main draft#1"]);
    h.clock.advance(40);
    await h.api.stepDone({ flow_id: id, step_id: "draft", result: parseJson('{"ok": false}') });
    const rejected = h.take();
    expect(brief(rejected)).toEqual([
      "step_finished main draft#1 rejected/ensure_failed",
      "step_dispatched main draft#2",
    ]);
    expect(rejected[0]).toMatchObject({ violations: ["ensure 'result.ok == True' failed"], duration_ms: 40 });
    h.clock.advance(10);
    const sub = await h.api.stepDone({ flow_id: id, step_id: "draft", result: parseJson('{"ok": true}') });
    const child = String(sub.child_flow_id);
    const dispatched = h.take();
    expect(brief(dispatched)).toEqual([
      "step_finished main draft#2 accepted",
      "step_dispatched main sub#1",
      "flow_started child",
      "step_dispatched child work#1",
    ]);
    expect(dispatched[1]).toMatchObject({ child_flow_id: child, seq: 1 });
    expect(dispatched[2]).toMatchObject({ parent_flow_id: id, parent_step_id: "sub", root_flow_id: id });
    await h.api.stepDone({ flow_id: child, step_id: "work", result: parseJson('{"v": 1}') });
    expect(brief(h.take())).toEqual(["step_finished child work#1 accepted", "flow_finished child complete"]);
    const completion = parseJson('{"status": "complete", "output": {"v": 1}}');
    await h.api.stepDone({ flow_id: id, step_id: "sub", result: completion });
    expect(brief(h.take())).toEqual(["step_finished main sub#1 accepted", "gate_awaited main review"]);
    h.clock.advance(5);
    await h.api.gateResolve({
      flow_id: id,
      step_id: "review",
      outcome: "approve",
      rationale: "fine",
      resolved_by: "human",
    });
    const end = h.take();
    expect(brief(end)).toEqual(["gate_resolved main review approve by human", "flow_finished main complete"]);
    expect(end[0]).toMatchObject({ rationale: "fine", duration_ms: 5, dispatched_here: true, seq: 2 });
  });

  it("a gate a named person resolved carries the name, beside resolved_by human, and into its span", async () => {
    const h = makeObservedApi(new MemoryStore());
    const plan = await h.api.plan({ spec: TRACED_SPEC, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    const sub = await h.api.stepDone({ flow_id: id, step_id: "draft", result: parseJson('{"ok": true}') });
    const child = String(sub.child_flow_id);
    await h.api.stepDone({ flow_id: child, step_id: "work", result: parseJson('{"v": 1}') });
    await h.api.stepDone({
      flow_id: id,
      step_id: "sub",
      result: parseJson('{"status": "complete", "output": {"v": 1}}'),
    });
    h.take();
    await h.api.gateResolve({
      flow_id: id,
      step_id: "review",
      outcome: "approve",
      rationale: "fine",
      resolved_by: "human",
      resolved_by_name: "ada",
    });
    const [resolved] = h.take();
    expect(resolved).toMatchObject({ type: "gate_resolved", resolved_by: "human", resolved_by_name: "ada" });
    const span = resolved === undefined ? null : spanOf(resolved);
    expect(span?.attributes).toContainEqual(["stratum.gate.resolved_by_name", "ada"]);
  });

  it("a call that does not commit emits nothing; an observer that throws fails no call", async () => {
    const h = makeObservedApi(new MemoryStore(), { throwing: true });
    const plan = await h.api.plan({ spec: TRACED_SPEC, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    expect(plan.status).toBe("execute_step");
    expect(h.loggedErrors.join("\n")).toContain("observer: Error: observer down");
    h.take();
    const wrong = await h.api.stepDone({ flow_id: id, step_id: "sub", result: parseJson("{}") });
    expect(wrong.status).toBe("error");
    expect(h.take()).toEqual([]);
  });

  it("exhaustion after a restart: the start is estimated, the flow finished as exhausted", async () => {
    const h = makeObservedApi(new MemoryStore());
    const plan = await h.api.plan({ spec: TRACED_SPEC, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "draft", result: parseJson('{"ok": false}') });
    h.take();
    h.restart();
    const exhausted = await h.api.stepDone({
      flow_id: id,
      step_id: "draft",
      result: parseJson('{"ok": false}'),
    });
    expect(exhausted.error_type).toBe("retries_exhausted");
    const events = h.take();
    expect(brief(events)).toEqual(["step_finished main draft#2 exhausted", "flow_finished main exhausted"]);
    expect(events[0]).toMatchObject({
      dispatched_here: false,
      violations: ["ensure 'result.ok == True' failed"],
    });
  });

  it("a revise ends the gate and dispatches the target in the next round; a child detached in progress", async () => {
    const h = makeObservedApi(new MemoryStore());
    const plan = await h.api.plan({ spec: TRACED_SPEC, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    const sub = await h.api.stepDone({ flow_id: id, step_id: "draft", result: parseJson('{"ok": true}') });
    const child = String(sub.child_flow_id);
    h.take();
    // The parent gets a result while its child is still running: the child is detached.
    await h.api.stepDone({ flow_id: id, step_id: "sub", result: parseJson('{"v": 1}') });
    expect(brief(h.take())).toEqual([
      "step_finished main sub#1 accepted",
      "gate_awaited main review",
      "step_abandoned child work#1",
      "flow_finished child detached",
    ]);
    expect(child).not.toBe(id);
    await h.api.gateResolve({
      flow_id: id,
      step_id: "review",
      outcome: "revise",
      rationale: "again",
      resolved_by: "agent",
    });
    const revised = h.take();
    expect(brief(revised)).toEqual([
      "gate_resolved main review revise by agent",
      "step_routed main",
      "step_dispatched main draft#1",
    ]);
    expect(revised[2]).toMatchObject({ round: 1, seq: 3 });
    expect(revised[1]).toMatchObject({ from_step_id: "review", to_step_id: "draft", route: "on_revise" });
  });
});

describe("the events of a gate's kill routed by on_kill", () => {
  const KILL_ROUTED = `version: "0.2"
functions:
  go: {mode: gate}
flows:
  main:
    input: {}
    steps:
      - id: prepare
        intent: "Prepare"
      - id: go
        function: go
        on_approve: null
        on_revise: prepare
        on_kill: cleanup
      - id: cleanup
        intent: "Tear down"
`;

  it("dispatch the cleanup and finish the flow (killed) only when the cleanup is done", async () => {
    const h = makeObservedApi(new MemoryStore());
    const plan = await h.api.plan({ spec: KILL_ROUTED, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "prepare", result: parseJson("{}") });
    h.take();
    const killed = await h.api.gateResolve({
      flow_id: id,
      step_id: "go",
      outcome: "kill",
      rationale: "stop",
      resolved_by: "human",
    });
    // The flow goes on (docs/reference/runtime.md §6.1): the response dispatches the cleanup step.
    expect(killed.status).toBe("execute_step");
    expect(brief(h.take())).toEqual([
      "gate_resolved main go kill by human",
      "step_routed main",
      "step_dispatched main cleanup#1",
    ]);
    await h.api.stepDone({ flow_id: id, step_id: "cleanup", result: parseJson("{}") });
    expect(brief(h.take())).toEqual(["step_finished main cleanup#1 accepted", "flow_finished main killed"]);
  });

  it("finish the flow at a kill without a route", async () => {
    const h = makeObservedApi(new MemoryStore());
    const spec = KILL_ROUTED.replace("on_kill: cleanup", "on_kill: null");
    const plan = await h.api.plan({ spec, flow: "main", inputs: parseJson("{}") });
    const id = String(plan.flow_id);
    await h.api.stepDone({ flow_id: id, step_id: "prepare", result: parseJson("{}") });
    h.take();
    await h.api.gateResolve({
      flow_id: id,
      step_id: "go",
      outcome: "kill",
      rationale: "stop",
      resolved_by: "human",
    });
    expect(brief(h.take())).toEqual(["gate_resolved main go kill by human", "flow_finished main killed"]);
  });
});
