// A fresh reader's first page built before it is asked (FlowSource.prefetchNewest): the store's most
// recently changed long flow, answered from it only while that flow's change token holds and only
// for the window a page asks for first; the answer is the one a reader without it gives, and the
// checked page follows as it does.
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { composeHostLazily, type NodeHost } from "../../host/index";
import type { FlowPage } from "../../ui/api-types";
import { FlowSource } from "../../ui/flow-source";
import type { PageWindow } from "../../ui/views";
import { writeBigFlow, writeJournaledBigFlow } from "../hostile/ui-support";

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), "stratumc-ui-prefetch-"));
  homes.push(home);
  return home;
}

/** A host over `home` that counts the store's reads and the restores (the spec's checks). */
async function countedHost(
  home: string,
): Promise<{ readonly host: NodeHost; readonly reads: string[]; readonly restores: string[] }> {
  const host = await composeHostLazily({ cwd: home, env: { ...process.env, STRATUM_HOME: home } });
  const reads: string[] = [];
  const restores: string[] = [];
  const store = Object.assign(Object.create(host.store) as NodeHost["store"], {
    read: (flowId: string) => {
      reads.push(flowId);
      return host.store.read(flowId);
    },
  });
  return {
    host: {
      ...host,
      store,
      restore: (state) => {
        restores.push(state.flow_id);
        return host.restore(state);
      },
    },
    reads,
    restores,
  };
}

async function ok(answer: Promise<{ kind: string; value?: FlowPage }>): Promise<FlowPage> {
  const loaded = await answer;
  if (loaded.kind !== "ok" || loaded.value === undefined) throw new Error(`not answered: ${loaded.kind}`);
  return loaded.value;
}

/** What a reader that built nothing in advance answers first for `flowId` at `window`. */
async function plainFirst(home: string, flowId: string, window: PageWindow): Promise<FlowPage> {
  return ok(new FlowSource((await countedHost(home)).host).page(flowId, window));
}

/** Sets a flow's files' modification time `secondsAgo` before now (which flow is the newest). */
function touch(home: string, flowId: string, secondsAgo: number): void {
  const at = new Date(Date.now() - secondsAgo * 1_000);
  utimesSync(join(home, "flows", `${flowId}.json`), at, at);
}

describe("the prefetched first page", () => {
  it("is the newest long flow's first answer, given without reading the flow again, then the checked page follows", async () => {
    const home = newHome();
    const older = writeBigFlow(home, 3_000);
    const flowId = await writeJournaledBigFlow(home, 3_000, 20);
    touch(home, older, 60);
    const { host, reads, restores } = await countedHost(home);
    const source = new FlowSource(host);
    expect(await source.prefetchNewest()).toBe(true);
    expect(reads).toEqual([flowId]);
    const first = await ok(source.page(flowId, {}));
    // Answered before any further read, and before the spec's check.
    expect(reads).toEqual([flowId]);
    expect(restores).toEqual([]);
    expect(first.unchecked).toBe(true);
    expect(first).toEqual(await plainFirst(home, flowId, {}));
    expect(first).toEqual(await plainFirst(home, flowId, { limit: 100 }));
    const checked = await ok(source.page(flowId, {}));
    expect(checked.unchecked).toBeUndefined();
    expect(checked.gate?.step_id).toBe("approve");
    expect(restores).toEqual([flowId]);
    expect(checked.steps).toEqual(first.steps);
    // The other flow was not read ahead: its first answer is built when asked.
    expect(await ok(source.page(older, {}))).toEqual(await plainFirst(home, older, {}));
  });

  it("is not answered once the flow changed: the first answer is built from the flow as it is now", async () => {
    const home = newHome();
    const flowId = writeBigFlow(home, 3_000);
    const source = new FlowSource((await countedHost(home)).host);
    expect(await source.prefetchNewest()).toBe(true);
    const file = join(home, "flows", `${flowId}.json`);
    const state = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    state.inputs = { topic: "changed after the prefetch" };
    writeFileSync(file, JSON.stringify(state));
    const first = await ok(source.page(flowId, {}));
    expect(first.unchecked).toBe(true);
    expect(first.inputs).toEqual({ topic: "changed after the prefetch" });
    expect(first).toEqual(await plainFirst(home, flowId, {}));
  });

  it("is not answered for another window of the flow", async () => {
    const home = newHome();
    const flowId = writeBigFlow(home, 3_000);
    const source = new FlowSource((await countedHost(home)).host);
    expect(await source.prefetchNewest()).toBe(true);
    const window = { stepsOffset: 2_800, auditOffset: 0, limit: 50 };
    const first = await ok(source.page(flowId, window));
    expect(first.steps_offset).toBe(2_800);
    expect(first.audit_offset).toBe(0);
    expect(first).toEqual(await plainFirst(home, flowId, window));
  });

  it("is not built when the newest flow is short, nor for an empty store", async () => {
    const home = newHome();
    expect(await new FlowSource((await countedHost(home)).host).prefetchNewest()).toBe(false);
    const long = writeBigFlow(home, 3_000);
    writeBigFlow(home, 20);
    touch(home, long, 60);
    const { host, reads } = await countedHost(home);
    const source = new FlowSource(host);
    expect(await source.prefetchNewest()).toBe(false);
    // Nothing kept: the long flow's first answer reads it when asked.
    expect(await ok(source.page(long, {}))).toEqual(await plainFirst(home, long, {}));
    expect(reads.filter((id) => id === long)).toHaveLength(1);
  });
});
