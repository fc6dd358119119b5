// A long flow's page on a server that has not read it: the first answer comes from the flow file
// and the steps around the current one, before the whole spec is checked (restored), and says so;
// the checked page follows, and the two agree on everything the first one shows.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { composeHostLazily, type NodeHost } from "../../host/index";
import type { FlowPage } from "../../ui/api-types";
import { FlowSource } from "../../ui/flow-source";
import { writeBigFlow } from "../hostile/ui-support";

const home = mkdtempSync(join(tmpdir(), "stratumc-ui-first-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The host with every restore (the spec's check) counted. */
async function countedHost(): Promise<{ readonly host: NodeHost; readonly restores: string[] }> {
  const host = await composeHostLazily({ cwd: home, env: { ...process.env, STRATUM_HOME: home } });
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
});
