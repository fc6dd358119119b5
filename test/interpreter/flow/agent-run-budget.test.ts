// stratum_agent_run against a flow's run budget through the engine (see
// docs/reference/runtime.md §11.4): a correlation id naming a budgeted flow is charged one dispatch, the reported tokens and
// the run's seconds per run; a reached cap stops the flow, and the next run is refused with the
// reference's answer. Ids that name no flow, or a flow without a ledger, are not budgeted and
// write nothing.
import { describe, expect, it } from "vitest";
import { budgetWire } from "../../../interpreter/flow/audit";
import { makeTestApi } from "../support/make-test-api";
import { plain, planOk, result, stored } from "./api-fixtures";

const SPEC = (budget: string) => `version: "0.2"
contracts:
  Out:
    n: {type: integer}
functions:
  work:
    mode: infer
    intent: "Work"
    input: {}
    output: Out
flows:
  main:
    input: {}
${budget}    steps:
      - id: s1
        function: work
        inputs: {}
      - id: s2
        function: work
        inputs: {}
        depends_on: [s1]
`;

describe("agent runs charged to a flow's run budget", () => {
  it("charges each run; the run that reaches a cap stops the flow; the next is refused", async () => {
    const h = makeTestApi({ cwd: "/nowhere" });
    const id = String(
      (await planOk(h.api, SPEC("    budget: {max_agent_dispatches: 2, max_tokens: 1000}\n"))).flow_id,
    );
    expect(plain(await h.api.agentRunCheck!({ correlation_id: id }))).toEqual({ status: "ok" });
    await h.api.agentRunCharge!({ correlation_id: id, tokens: 120, dollars: 0.5, wall_s: 1.5 });
    let state = await stored(h.store, id);
    expect(plain({ b: budgetWire(state.budget_state) })).toMatchObject({
      b: { consumed: { dispatches: 1, tokens: 120, dollars: 0.5, wall_s: 1.5 } },
    });
    expect(state.terminal_status).toBeNull();
    // Bad numbers count as 0 and never credit the ledger back.
    await h.api.agentRunCharge!({ correlation_id: id, tokens: -50, dollars: Number.NaN, wall_s: -1 });
    state = await stored(h.store, id);
    expect(plain({ b: budgetWire(state.budget_state) })).toMatchObject({
      b: { consumed: { dispatches: 2, tokens: 120, dollars: 0.5, wall_s: 1.5 } },
    });
    expect(state.terminal_status).toBe("budget_exhausted");
    const refused = await h.api.agentRunCheck!({ correlation_id: id });
    expect(Object.keys(refused)).toEqual(["status", "text", "correlation_id", "budget_state"]);
    expect(plain(refused)).toMatchObject({
      status: "budget_exhausted",
      text: "",
      correlation_id: id,
      budget_state: { caps: { max_agent_dispatches: 2 }, consumed: { dispatches: 2 } },
    });
    // The flow itself is stopped for every advancing call.
    expect(
      plain(await h.api.stepDone({ flow_id: id, step_id: "s1", result: result('{"n": 1}') })),
    ).toMatchObject({ status: "budget_exhausted", flow_id: id });
  });

  it("a cap reached by step_done's usage refuses the run and marks the flow", async () => {
    const h = makeTestApi({ cwd: "/nowhere" });
    const id = String((await planOk(h.api, SPEC("    budget: {max_tokens: 10}\n"))).flow_id);
    const r = await h.api.stepDone({
      flow_id: id,
      step_id: "s1",
      result: result('{"n": 1}'),
      usage: result('{"tokens": 10}'),
    });
    expect(r.status).toBe("budget_exhausted");
    expect(plain(await h.api.agentRunCheck!({ correlation_id: id }))).toMatchObject({
      status: "budget_exhausted",
      budget_state: { consumed: { tokens: 10 } },
    });
  });

  it("ids that name no budgeted flow are not budgeted and write nothing", async () => {
    const h = makeTestApi({ cwd: "/nowhere" });
    const free = String((await planOk(h.api, SPEC(""))).flow_id);
    const before = (await stored(h.store, free)).revision;
    for (const correlation_id of [free, "no-such-flow", "../../etc/passwd", ""]) {
      expect(plain(await h.api.agentRunCheck!({ correlation_id }))).toEqual({ status: "ok" });
      expect(
        plain(await h.api.agentRunCharge!({ correlation_id, tokens: 5, dollars: 0, wall_s: 1 })),
      ).toEqual({
        status: "ok",
      });
    }
    const after = await stored(h.store, free);
    expect(after.revision).toBe(before);
    expect(after.budget_state).toBeNull();
  });
});
