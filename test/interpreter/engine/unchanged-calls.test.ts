// A call that changes nothing stored commits nothing (docs/reference/runtime.md §14.2): a
// `stratum_resume` poll of a flow waiting at its gate leaves the revision and the change token as
// they were, so a gate resolution by another process that read the flow before the polls, or a
// person's resolution bound to the revision they were shown, still goes through.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import type { ChangeToken, StoreBatch } from "../../../interpreter/store/store";
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
  review:
    mode: gate
flows:
  main:
    input: {}
    steps:
      - id: a
        function: work
        inputs: {}
      - id: approve
        function: review
        on_approve: ~
        on_revise: a
        on_kill: ~
`;

/** A MemoryStore that counts its commits. */
class CountingStore extends MemoryStore {
  commits = 0;
  override commit(batch: StoreBatch): Promise<ReadonlyMap<string, ChangeToken>> {
    this.commits += 1;
    return super.commit(batch);
  }
}

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "stratum-unchanged-"));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

async function atGate(store: CountingStore) {
  const t = makeTestApi({ cwd, store });
  const planned = await t.api.plan({ spec: SPEC, flow: "main", inputs: fromJsonValue({}) });
  const flowId = String(planned.flow_id);
  const done = await t.api.stepDone({ flow_id: flowId, step_id: "a", result: fromJsonValue({ v: "x" }) });
  expect(done).toMatchObject({ status: "await_gate" });
  return { t, flowId };
}

it("a resume at a gate commits nothing and keeps the revision and the change token", async () => {
  const store = new CountingStore();
  const { t, flowId } = await atGate(store);
  const commits = store.commits;
  const before = await store.read(flowId);
  for (let i = 0; i < 3; i += 1) {
    expect(await t.api.resume({ flow_id: flowId })).toMatchObject({
      status: "await_gate",
      step_id: "approve",
    });
  }
  expect(store.commits).toBe(commits);
  const after = await store.read(flowId);
  expect(after?.revision).toBe(before?.revision);
  expect(after?.token).toBe(before?.token);
  expect(t.loggedErrors).toEqual([]);
});

it("a resolution by another process that read the flow before the polls goes through", async () => {
  const store = new CountingStore();
  const { t, flowId } = await atGate(store);
  const page = t.fresh();
  // The other process holds the flow as it was before the polls (its audit loaded it).
  expect(await page.audit({ flow_id: flowId })).toMatchObject({ flow_id: flowId });
  const revision = (await store.read(flowId))!.revision;
  for (let i = 0; i < 3; i += 1) await t.api.resume({ flow_id: flowId });
  const resolved = await page.gateResolve({
    flow_id: flowId,
    step_id: "approve",
    outcome: "approve",
    rationale: "looks right",
    resolved_by: "human",
    expected_revision: revision,
  });
  expect(resolved).toMatchObject({ status: "complete" });
  // The polling process sees the resolution at its next call.
  expect(await t.api.resume({ flow_id: flowId })).toMatchObject({ status: "complete" });
  expect(t.loggedErrors).toEqual([]);
});
