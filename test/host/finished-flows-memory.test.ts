// A finished flow leaves nothing behind in a long-lived server's memory but what its bounded
// caches hold: the file store forgets what it remembered of a flow's files once the flow finished
// (it is not written again), so after thousands of flows the map holds the in-progress ones only.
// Counted in entries, not RSS (bench/server-memory-bench.ts measures the RSS).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../host/file-store/file-store";
import { nodeFileSystem } from "../../host/node-fs";
import { nodeWorkspace } from "../../host/node-workspace";
import { createApi } from "../../interpreter/engine/create-api";
import { fromJsonValue } from "../../stdlib/values/json";

const SPEC = `version: "0.2"
contracts:
  Out: {summary: {type: string}}
functions:
  work: {mode: infer, intent: "Do the work", input: {n: {type: integer}}, output: Out, retries: 1}
flows:
  main:
    input: {n: {type: integer}}
    output: Out
    steps:
      - {id: work, function: work, inputs: {n: $.input.n}}
`;

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "stratumc-finished-memory-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function engine(store: FileFlowStore) {
  let n = 0;
  return createApi({
    store,
    clock: { wallMs: () => Date.now(), monoMs: () => performance.now() },
    ids: { newFlowId: () => `flow-${String(++n).padStart(6, "0")}` },
    cwd: home,
    files: (root) => ({ root, fs: nodeFileSystem }),
    workspace: nodeWorkspace,
    logError: () => undefined,
  });
}

async function planFlow(api: ReturnType<typeof engine>, n: number): Promise<string> {
  const plan = await api.plan({ spec: SPEC, flow: "main", inputs: fromJsonValue({ n }) });
  expect(plan.status).toBe("execute_step");
  return String(plan.flow_id);
}

describe("finished flows in a long-lived server", () => {
  it("leave no entry in the file store's map; in-progress flows keep theirs", async () => {
    const store = new FileFlowStore(home);
    const api = engine(store);
    const waiting = await planFlow(api, 0);
    for (let n = 1; n <= 60; n++) {
      const flowId = await planFlow(api, n);
      const done = await api.stepDone({
        flow_id: flowId,
        step_id: "work",
        result: fromJsonValue({ summary: `done ${n}` }),
      });
      expect(done.status).toBe("complete");
    }
    expect(store.rememberedFlows).toBe(1);
    // A finished flow is still answered, and the waiting one goes on.
    const audit = await api.audit({ flow_id: "flow-000002" });
    expect(audit.status).toBe("complete");
    const last = await api.stepDone({
      flow_id: waiting,
      step_id: "work",
      result: fromJsonValue({ summary: "x" }),
    });
    expect(last.status).toBe("complete");
    expect(store.rememberedFlows).toBe(0);
  });
});
