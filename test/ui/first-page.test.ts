// A long flow's page on a server that has not read it: the first answer comes from the flow file
// and the steps around the current one, before the whole spec is checked (restored), and says so;
// the checked page follows, and the two agree on everything the first one shows.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { composeHostLazily, type NodeHost } from "../../host/index";
import { fromJsonValue } from "../../stdlib/index";
import type { FlowPage } from "../../ui/api-types";
import { FIRST_PAGE_MAX_ENTRIES, FIRST_PAGE_MIN_CHARS, firstPage } from "../../ui/first-page";
import { warmFirstPage } from "../../ui/first-page-warmup";
import { FlowSource } from "../../ui/flow-source";
import { writeBigFlow, writeJournaledBigFlow } from "../hostile/ui-support";

const home = mkdtempSync(join(tmpdir(), "stratumc-ui-first-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The host with every restore (the spec's check) counted. */
async function countedHost(
  env: Record<string, string> = {},
): Promise<{ readonly host: NodeHost; readonly restores: string[] }> {
  const host = await composeHostLazily({ cwd: home, env: { ...process.env, ...env, STRATUM_HOME: home } });
  const restores: string[] = [];
  return {
    host: {
      ...host,
      restore: (state) => {
        restores.push(state.flow_id);
        return host.restore(state);
      },
    },
    restores,
  };
}

/** The flow's file rewritten by `edit` (a flow stopped elsewhere than at its gate). */
function edited(flowId: string, edit: (state: Record<string, unknown>) => void): void {
  const file = join(home, "flows", `${flowId}.json`);
  const state = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  edit(state);
  writeFileSync(file, JSON.stringify(state));
}

/** The length of the flows driven by real calls (the last one is the gate). */
const STEPS = 3_000;

/** A flow of `steps` steps stopped at step `at`, the steps after it not run yet. */
function stoppedAt(steps: number, at: number): string {
  const flowId = writeBigFlow(home, steps);
  edited(flowId, (state) => {
    state.records = (state.records as unknown[]).slice(0, at);
    state.current_idx = at;
    for (const map of [state.step_outputs, state.attempts] as Record<string, unknown>[])
      for (let i = at; i < steps; i++) delete map[`s${i}`];
  });
  return flowId;
}

/** Runs steps `from` … `to - 1` by real calls through `host`'s engine. */
async function run(host: NodeHost, flowId: string, from: number, to: number): Promise<void> {
  const api = host.api();
  for (let i = from; i < to; i++) {
    const done = await api.stepDone({
      flow_id: flowId,
      step_id: `s${i}`,
      result: fromJsonValue({ name: `part ${i}, by a call` }),
    });
    expect((done as { status?: unknown }).status).toBe(i + 1 < STEPS - 1 ? "execute_step" : "await_gate");
  }
}

async function journalLength(flowId: string): Promise<number> {
  const stored = await (await countedHost()).host.store.read(flowId);
  if (stored === null) throw new Error("flow not stored");
  return stored.deltas.length;
}

/** The first answer of a fresh server, unchecked, and the checked page of another one, compared. */
async function agrees(flowId: string): Promise<FlowPage> {
  const { host, restores } = await countedHost();
  const first = await ok(new FlowSource(host).page(flowId, {}));
  expect(first.unchecked).toBe(true);
  expect(restores).toEqual([]);
  const source = new FlowSource((await countedHost()).host);
  await source.page(flowId, {});
  const checked = await ok(source.page(flowId, {}));
  expect(checked.unchecked).toBeUndefined();
  expect(shown(first)).toEqual(shown(checked));
  return first;
}

async function ok(answer: Promise<{ kind: string; value?: FlowPage }>): Promise<FlowPage> {
  const loaded = await answer;
  if (loaded.kind !== "ok" || loaded.value === undefined) throw new Error(`not answered: ${loaded.kind}`);
  return loaded.value;
}

/** What an unchecked page shows, which the checked page must say the same. */
function shown(page: FlowPage): unknown {
  return {
    flow: { ...page.flow, gate: null },
    revision: page.revision,
    spec: page.spec,
    steps: page.steps,
    steps_offset: page.steps_offset,
    steps_total: page.steps_total,
    audit: page.audit,
    audit_offset: page.audit_offset,
    audit_total: page.audit_total,
    inputs: page.inputs,
  };
}

describe("the first page of a long flow", () => {
  it("is answered from steps written in flow style too, one a line", async () => {
    const flowId = writeBigFlow(home, 3_000);
    edited(flowId, (state) => {
      state.raw_spec = (state.raw_spec as string).replace(
        /^ {6}- id: (s\d+)\n {8}function: f\n {8}inputs: \{\}$/gm,
        "      - {id: $1, function: f, inputs: {}}",
      );
    });
    const source = new FlowSource((await countedHost()).host);
    const first = await ok(source.page(flowId, {}));
    expect(first.unchecked).toBe(true);
    expect(shown(first)).toEqual(shown(await ok(source.page(flowId, {}))));
  });

  it("is answered before the spec is checked, and the checked page follows", async () => {
    const flowId = writeBigFlow(home, 3_000);
    const { host, restores } = await countedHost();
    const source = new FlowSource(host);
    const first = await ok(source.page(flowId, {}));
    // Answered with no restore (the check of the flow's spec) begun.
    expect(restores).toEqual([]);
    expect(first.unchecked).toBe(true);
    expect(first.gate).toBeNull();
    expect(first.review).toBeNull();
    expect(first.flow.status).toBe("awaiting_gate");
    expect(first.flow.current_step_id).toBe("approve");
    expect(first.steps.at(-1)).toMatchObject({ id: "approve", kind: "gate", state: "awaiting_gate" });
    const checked = await ok(source.page(flowId, {}));
    expect(restores).toEqual([flowId]);
    expect(checked.unchecked).toBeUndefined();
    expect(checked.gate?.step_id).toBe("approve");
    expect(shown(first)).toEqual(shown(checked));
    // Read once: later pages come from the checked model.
    await ok(source.page(flowId, { stepsOffset: 100 }));
    expect(restores).toEqual([flowId]);
  });

  it("says what the checked page says for a flow stopped mid-way, and for each window that holds its current step", async () => {
    const flowId = writeBigFlow(home, 6_000);
    edited(flowId, (state) => {
      const records = state.records as { step_id: string }[];
      state.records = records.slice(0, 1_234);
      state.current_idx = 1_234;
      state.attempts = { ...(state.attempts as object), s1234: 3 };
      state.inputs = { topic: "windows" };
    });
    for (const window of [{}, { stepsOffset: 1_200, auditOffset: 17, limit: 60 }, { limit: 1 }]) {
      const first = await ok(new FlowSource((await countedHost()).host).page(flowId, window));
      expect(first.unchecked).toBe(true);
      const source = new FlowSource((await countedHost()).host);
      await source.page(flowId, window);
      const checked = await ok(source.page(flowId, window));
      expect(checked.unchecked).toBeUndefined();
      expect(shown(first)).toEqual(shown(checked));
    }
    // A window without the current step does not say where the flow is: it waits for the check.
    const away = await ok(new FlowSource((await countedHost()).host).page(flowId, { stepsOffset: 5_900 }));
    expect(away.unchecked).toBeUndefined();
    const first = await ok(new FlowSource((await countedHost()).host).page(flowId, {}));
    // At its limit of attempts, the current step is where the flow stopped.
    expect(first.flow.status).toBe("exhausted");
    expect(first.steps_offset).toBe(1_200);
  });

  it("waits for the check when the flow's steps are not plainly written", async () => {
    const flowId = writeBigFlow(home, 3_000);
    // A document marker: the scan does not follow the text further.
    edited(flowId, (state) => {
      state.raw_spec = `---\n${state.raw_spec as string}`;
    });
    const { host, restores } = await countedHost();
    const page = await ok(new FlowSource(host).page(flowId, {}));
    expect(page.unchecked).toBeUndefined();
    expect(page.gate?.step_id).toBe("approve");
    expect(restores).toEqual([flowId]);
  });

  it("is not answered for a spec that does not check: the flow is not found, as in the checked reading", async () => {
    const flowId = writeBigFlow(home, 3_000);
    // A route to a step that does not exist: the cut spec loads, the whole one does not check.
    edited(flowId, (state) => {
      state.raw_spec = (state.raw_spec as string).replace("on_revise: s0", "on_revise: nowhere");
    });
    const source = new FlowSource((await countedHost()).host);
    expect((await source.page(flowId, {})).kind).toBe("ok");
    expect((await source.page(flowId, {})).kind).toBe("not_found");
  });

  it("applies the journal's entries of real calls to the flow file: the first answer agrees with the checked page", async () => {
    const flowId = await writeJournaledBigFlow(home, STEPS, 9);
    // Each call is a journal entry: the snapshot is far larger than the journal.
    expect(await journalLength(flowId)).toBe(9);
    const first = await agrees(flowId);
    expect(first.flow.status).toBe("awaiting_gate");
    expect(first.flow.current_step_id).toBe("approve");
    expect(first.revision).toBe(10);
    expect(first.steps.find((s) => s.id === "s2998")).toMatchObject({
      state: "done",
      attempts: 1,
      output: { name: "part 2998 of the plan, done" },
    });
  });

  it("applies entries written after a snapshot the store wrote, through a revision of the gate", async () => {
    const flowId = stoppedAt(STEPS, 2_990);
    // Reference flow files: every commit is a snapshot written by the store, no journal.
    await run((await countedHost({ STRATUM_REFERENCE_FLOW_FILES: "1" })).host, flowId, 2_990, 2_995);
    expect(await journalLength(flowId)).toBe(0);
    const { host } = await countedHost();
    await run(host, flowId, 2_995, STEPS - 1);
    const revised = await host.api().gateResolve({
      flow_id: flowId,
      step_id: "approve",
      outcome: "revise",
      rationale: "again",
      resolved_by: "human",
    });
    expect((revised as { status?: unknown }).status).toBe("execute_step");
    await run(host, flowId, 0, 3);
    // The revision sets, puts and deletes: the round's records move into `rounds`.
    expect(await journalLength(flowId)).toBe(8);
    const first = await agrees(flowId);
    expect(first.flow).toMatchObject({ status: "running", current_step_id: "s3", round: 1 });
    expect(first.steps_offset).toBe(0);
    expect(first.steps[2]).toMatchObject({ id: "s2", state: "done", output: { name: "part 2, by a call" } });
    expect(first.audit_total).toBeGreaterThan(3_000);
  });

  it("is not answered from entries a delta reader would refuse", async () => {
    const flowId = stoppedAt(STEPS, 2_990);
    await run((await countedHost()).host, flowId, 2_990, 2_993);
    const stored = await (await countedHost()).host.store.read(flowId);
    if (stored === null) throw new Error("flow not stored");
    expect(stored.deltas).toHaveLength(3);
    expect(firstPage(flowId, stored, {})?.revision).toBe(4);
    const [a = "", b = "", c = ""] = stored.deltas;
    const unknownKey = c.replace('"append": {', '"append": {"notes": [1], ');
    const twice = c.replace('"append": {', '"append": {"step_outputs": [1], ');
    for (const deltas of [
      [b, a, c],
      [a, b],
      [a, b, unknownKey],
      [a, b, twice],
      [a, b, "{"],
    ])
      expect(firstPage(flowId, { ...stored, deltas }, {})).toBeNull();
  });

  it("is not answered from more journal entries than its cap: the checked page answers instead", async () => {
    const flowId = stoppedAt(STEPS, 2_990);
    await run((await countedHost()).host, flowId, 2_990, 2_993);
    const stored = await (await countedHost()).host.store.read(flowId);
    if (stored === null) throw new Error("flow not stored");
    expect(stored.deltas).toHaveLength(3);
    expect(firstPage(flowId, stored, {}, 3)?.revision).toBe(4);
    expect(firstPage(flowId, stored, {}, 2)).toBeNull();
    // The default cap is far above the last calls a flow at its gate has journaled, but bounded.
    expect(FIRST_PAGE_MAX_ENTRIES).toBeGreaterThanOrEqual(100);
  });

  it("is answered below its size threshold only when asked to (the reader worker's warm-up)", async () => {
    const flowId = stoppedAt(40, 20);
    const stored = await (await countedHost()).host.store.read(flowId);
    if (stored === null) throw new Error("flow not stored");
    expect(stored.text.length).toBeLessThan(FIRST_PAGE_MIN_CHARS);
    expect(firstPage(flowId, stored, {})).toBeNull();
    const page = firstPage(flowId, stored, {}, FIRST_PAGE_MAX_ENTRIES, 0);
    expect(page?.unchecked).toBe(true);
    expect(page?.steps.find((s) => s.state === "current")?.id).toBe("s20");
  });

  it("is what the reader worker's warm-up builds, from the whole path a long flow takes", () => {
    // The warm-up's made-up flow: a window of steps and a gate, stopped halfway, one journal entry
    // applied. A null here would mean the warm-up no longer runs the code the first answer runs.
    const page = warmFirstPage();
    expect(page?.unchecked).toBe(true);
    const current = page?.steps.filter((s) => s.state === "current") ?? [];
    expect(current).toHaveLength(1);
    expect(page?.flow.completed_steps).toBe(page?.audit_total);
    expect(page?.flow.current_step_id).toBe(current[0]?.id);
    expect(page?.revision).toBe(2);
    expect(page?.steps_total).toBe((page?.steps.length ?? 0) + 1);
    expect(page?.spec.source).toContain("- id: approve");
  });
});
