// A long flow's page parts that scan its whole spec text (the spec window around the current
// step, the gate's review with its spec excerpt) are made once per read of the flow, not once per
// page of steps or records the page asks for: before, every window of a 10,000-step flow waiting at
// its gate re-scanned the 880 KB spec (~95 ms an answer; now well under a millisecond).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { composeHostLazily, type NodeHost } from "../../host/index";
import { FlowSource } from "../../ui/flow-source";
import { writeBigFlow } from "../hostile/ui-support";

const home = mkdtempSync(join(tmpdir(), "stratumc-ui-model-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("the pages of one long flow", () => {
  it("share the spec window and the gate review made at its read", async () => {
    const flowId = writeBigFlow(home, 400);
    const host = await composeHostLazily({ cwd: home, env: { ...process.env, STRATUM_HOME: home } });
    const source = new FlowSource(host);
    // The first answer about a flow this long is unchecked (first-page.test.ts); the next is the model's.
    expect((await source.page(flowId, {})).kind).toBe("ok");
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

/** The host with its store's reads of each flow counted. */
function counted(host: NodeHost): { readonly host: NodeHost; readonly reads: string[] } {
  const reads: string[] = [];
  const store = host.store;
  const read: typeof store.read = (flowId) => {
    reads.push(flowId);
    return store.read(flowId);
  };
  return { host: { ...host, store: Object.assign(Object.create(store) as typeof store, { read }) }, reads };
}

/** The flow's file written again, one revision on: as if the engine had committed it. */
function committed(flowId: string): void {
  const file = join(home, "flows", `${flowId}.json`);
  const state = JSON.parse(readFileSync(file, "utf8")) as { revision: number };
  writeFileSync(file, JSON.stringify({ ...state, revision: state.revision + 1 }, null, 2));
}

describe("a flow that comes to a gate while the list is read", () => {
  it("has its page answered from the list's read, not read again", async () => {
    const flowId = writeBigFlow(home, 300);
    const composed = await composeHostLazily({ cwd: home, env: { ...process.env, STRATUM_HOME: home } });
    const { host, reads } = counted(composed);
    const source = new FlowSource(host);
    await source.list(); // the first reading (the notifier's, at the server's start)
    committed(flowId); // the flow comes to its gate: the notification goes out
    await source.list();
    const readsBefore = reads.filter((id) => id === flowId).length;
    const page = await source.page(flowId, {});
    if (page.kind !== "ok") throw new Error("the flow did not load");
    expect(page.value.gate?.step_id).toBe("approve");
    expect(page.value.revision).toBe(2);
    expect(reads.filter((id) => id === flowId).length).toBe(readsBefore);
  });

  it("is read for its page when the list only learned it at its first reading", async () => {
    const flowId = writeBigFlow(home, 300);
    const composed = await composeHostLazily({ cwd: home, env: { ...process.env, STRATUM_HOME: home } });
    const { host, reads } = counted(composed);
    const source = new FlowSource(host);
    await source.list();
    const readsBefore = reads.filter((id) => id === flowId).length;
    expect((await source.page(flowId, {})).kind).toBe("ok");
    expect(reads.filter((id) => id === flowId).length).toBe(readsBefore + 1);
  });
});
