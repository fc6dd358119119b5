// The interpreter's public entry is enough to embed the flow runtime: an API over the in-memory
// store with an injected clock and ids runs a flow from plan to completion and persists it.
import { describe, expect, it } from "vitest";
import {
  type Clock,
  createApi,
  decodeStoredFlow,
  type IdSource,
  MemoryStore,
  wireToPlain,
} from "../../interpreter/index";
import { fromJsonValue } from "../../stdlib/values/json";
import { NO_WORKSPACE } from "../support/no-workspace";

const SPEC = `version: "0.2"
contracts:
  Out: {v: {type: integer}}
flows:
  main:
    input: {n: {type: integer}}
    steps:
      - id: double
        intent: "Double n"
        inputs: {n: "$.input.n"}
        output_contract: Out
        ensure: ["result.v == $.input.n * 2"]
        retries: 2
`;

describe("interpreter public entry", () => {
  it("plans, rejects a wrong result, accepts a right one and keeps the finished flow", async () => {
    let now = 0;
    const clock: Clock = { wallMs: () => now, monoMs: () => (now += 5) };
    const ids: IdSource = { newFlowId: () => "00000000-0000-4000-8000-000000000001" };
    const store = new MemoryStore();
    const api = createApi({
      store,
      clock,
      ids,
      cwd: "/",
      files: () => null,
      workspace: NO_WORKSPACE,
      verifyEdits: true,
    });

    const plan = await api.plan({ spec: SPEC, flow: "main", inputs: fromJsonValue({ n: 21 }) });
    expect(plan).toMatchObject({
      status: "execute_step",
      step_id: "double",
      inputs: fromJsonValue({ n: 21 }),
    });
    const wrong = await api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "double",
      result: fromJsonValue({ v: 41 }),
    });
    expect(wireToPlain(wrong)).toMatchObject({
      status: "ensure_failed",
      retries_remaining: 1,
      violations: ["ensure 'result.v == $.input.n * 2' failed"],
    });
    const right = await api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "double",
      result: fromJsonValue({ v: 42 }),
    });
    expect(wireToPlain(right)).toMatchObject({ status: "complete", output: { v: 42 } });

    const stored = await store.read(String(plan.flow_id));
    const decoded = stored === null ? null : decodeStoredFlow(stored);
    expect(decoded?.ok && decoded.state.status).toBe("complete");
    expect(decoded?.ok && decoded.state.revision).toBe(3);
  });
});
