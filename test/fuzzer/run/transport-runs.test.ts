// The fuzzing engine's transport forgets a run's flows when the next run starts: no run sees
// another's, and kept, they grew the memory of a long exploration with every run. A fork taken
// during a run still puts its flows back after later runs, as exhaustive exploration needs, and
// forgets the flows the run created after it (kept, they were held to the end of the session).
import { describe, expect, it } from "vitest";
import { virtualFiles } from "../../../fuzzer/engine";
import { engineTransport } from "../../../fuzzer/transport";

const SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "Do a"
      - id: b
        intent: "Do b"
`;

async function plan(t: ReturnType<typeof engineTransport>): Promise<string> {
  const { response } = await t("stratum_plan", { spec: SPEC, flow: "main", inputs: {} });
  expect(response.status).toBe("execute_step");
  return String(response.flow_id);
}

async function audited(t: ReturnType<typeof engineTransport>, flowId: string): Promise<unknown> {
  return (await t("stratum_audit", { flow_id: flowId })).response.status;
}

describe("the fuzzing transport between runs", () => {
  it("forgets the flows of the run before when a run starts, and only those", async () => {
    const t = engineTransport(virtualFiles([]));
    t.newRun?.();
    const first = await plan(t);
    const second = await plan(t);
    expect(await audited(t, first)).not.toBe("error");
    t.newRun?.();
    const third = await plan(t);
    for (const gone of [first, second]) {
      const { response } = await t("stratum_audit", { flow_id: gone });
      expect(response).toMatchObject({ status: "error", error_type: "flow_not_found" });
    }
    expect(await audited(t, third)).not.toBe("error");
    // The new run's flow goes on as usual.
    const { response } = await t("stratum_step_done", { flow_id: third, step_id: "a", result: {} });
    expect(response).toMatchObject({ status: "execute_step", step_id: "b" });
  });

  it("puts a forked run's flows back after later runs forgot them", async () => {
    const t = engineTransport(virtualFiles([]));
    t.newRun?.();
    const id = await plan(t);
    const fork = t.fork?.();
    expect(fork).toBeDefined();
    await t("stratum_step_done", { flow_id: id, step_id: "a", result: {} });
    t.newRun?.();
    await plan(t);
    t.newRun?.();
    fork?.restore();
    const { response } = await t("stratum_step_done", { flow_id: id, step_id: "a", result: {} });
    expect(response).toMatchObject({ status: "execute_step", step_id: "b" });
  });

  it("forgets on restore the flows the run created after the fork", async () => {
    const t = engineTransport(virtualFiles([]));
    t.newRun?.();
    const before = await plan(t);
    const fork = t.fork?.();
    const after = await plan(t);
    fork?.restore();
    const { response } = await t("stratum_audit", { flow_id: after });
    expect(response).toMatchObject({ status: "error", error_type: "flow_not_found" });
    expect(await audited(t, before)).not.toBe("error");
  });
});
