// The calls that use no flow are answered while a flow call waits for its store: the engine's
// queue orders the flow calls only (docs/reference/runtime.md §1.1, docs/guides/team-store.md "A database that
// stops answering"). A store whose reads hang until the test lets them go stands for a database
// that stopped answering; no timing is measured, only which answers have come.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import type { ChangeToken, StoredFlow } from "../../../interpreter/store/store";
import { fromJsonValue } from "../../../stdlib/index";
import { makeTestApi } from "../support/make-test-api";

const SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Do it"
    input: {}
    output: Out
flows:
  main:
    input: {}
    steps:
      - id: a
        function: work
        inputs: {}
      - id: b
        function: work
        inputs: {}
`;

/** A MemoryStore whose reads wait while `frozen` is set. */
class FreezableStore extends MemoryStore {
  private gate: Promise<void> | null = null;
  private release: (() => void) | null = null;

  freeze(): void {
    this.gate = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  thaw(): void {
    this.release?.();
    this.gate = null;
  }

  override async token(flowId: string): Promise<ChangeToken | null> {
    await this.gate;
    return super.token(flowId);
  }

  override async read(flowId: string): Promise<StoredFlow | null> {
    await this.gate;
    return super.read(flowId);
  }
}

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "stratum-store-free-"));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

/** Whether the promise has settled by the time every queued callback has run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

it("answers validate and the workspace tools while a flow call waits for the store", async () => {
  const store = new FreezableStore();
  const { api } = makeTestApi({ cwd, store });
  const planned = await api.plan({ spec: SPEC, flow: "main", inputs: fromJsonValue({}) });
  const flowId = String(planned.flow_id);

  store.freeze();
  const stepDone = api.stepDone({ flow_id: flowId, step_id: "a", result: fromJsonValue({ v: "x" }) });
  const audit = api.audit({ flow_id: flowId });
  const validate = api.validate({ spec: SPEC });
  const list = api.listWorkflows({ workflows_dir: "." });

  expect(await settled(validate)).toBe(true);
  expect(await settled(list)).toBe(true);
  expect(await validate).toMatchObject({ valid: true });
  expect(await list).toMatchObject({ workflows: [] });
  // The flow calls wait for the store, in the order they came.
  expect(await settled(stepDone)).toBe(false);
  expect(await settled(audit)).toBe(false);

  store.thaw();
  expect(await stepDone).toMatchObject({ status: "execute_step", step_id: "b" });
  const audited = await audit;
  expect(audited.flow_id).toBe(flowId);
  expect((audited.trace as unknown[]).length).toBe(1); // the audit ran after the step_done
});
