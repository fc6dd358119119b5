// `stratumc ui --notify` end to end: the built `stratumc ui` over a real file store, flows driven
// to their gate by the built `stratum-mcp`, and webhook receivers on 127.0.0.1 (notify/receiver.ts).
// Each gate that starts waiting is posted once, in a shape Slack and other receivers take, with a
// link to its page that carries no token; a restart announces nothing again; a receiver that
// answers 500 gets the notification on a later attempt; one that is down costs a warning that
// does not show the webhook's secret path, and the page goes on serving.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpServer, startMcp, tempTree } from "../hostile/workspace-support";
import { startUi } from "./browser-support";
import { GATE_SPEC } from "./gate-spec";
import { deadPort, SECRET_PATH, startReceiver } from "./notify/receiver";

let tree: ReturnType<typeof tempTree>;
let home: string;
let mcp: McpServer;

beforeAll(async () => {
  tree = tempTree("stratumc-ui-notify-");
  home = join(tree.path, "home");
  mkdirSync(home);
  mcp = await startMcp(tree.path, home);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  tree?.dispose();
});

/** A flow planned and driven through the MCP server to its gate. */
async function flowAtGate(): Promise<string> {
  const plan = await mcp.call("stratum_plan", {
    spec: GATE_SPEC,
    flow: "main",
    inputs: { topic: "caching" },
  });
  const flowId = String(plan.flow_id);
  const done = await mcp.call("stratum_step_done", {
    flow_id: flowId,
    step_id: "draft",
    result: { text: "A first draft" },
  });
  expect(done.status).toBe("await_gate");
  return flowId;
}

/** The ui with `args`, once it has said where notifications go (what waits already is known then). */
async function startNotifyingUi(args: readonly string[], env: Record<string, string> = {}) {
  const ui = await startUi(home, args, env);
  const deadline = Date.now() + 15_000;
  while (!/notifying /.test(ui.stderr())) {
    if (Date.now() > deadline) throw new Error(`no notifying line: ${ui.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return ui;
}

function settle(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

describe("stratumc ui --notify", () => {
  it("posts each gate that starts waiting once, with a link to its page and no token", async () => {
    const receiver = await startReceiver();
    const other = await startReceiver();
    const ui = await startNotifyingUi(["--notify", receiver.url], {
      STRATUM_NOTIFY: "http://127.0.0.1:9/ignored",
    });
    try {
      const flowId = await flowAtGate();
      const [first] = await receiver.waitFor(1);
      expect(first?.path).toBe(SECRET_PATH);
      expect(first?.headers["content-type"]).toBe("application/json");
      const body = first?.body ?? {};
      expect(body).toMatchObject({
        event: "gate_waiting",
        flow_id: flowId,
        flow_name: "main",
        step_id: "approve",
        function: "review",
        approves: null,
        timeout_seconds: null,
        link: `${ui.origin}/#/flow/${flowId}`,
      });
      expect(typeof body.text).toBe("string");
      expect(body.text).toContain(`${ui.origin}/#/flow/${flowId}`);
      expect(Date.parse(String(body.since))).toBe(body.since_ms);
      expect(Math.abs(Number(body.since_ms) - Date.now())).toBeLessThan(60_000);
      expect(JSON.stringify(body)).not.toContain(ui.token);

      // Further changes in the store (another flow planned, the page's reads) announce it no more.
      await mcp.call("stratum_plan", { spec: GATE_SPEC, flow: "main", inputs: { topic: "other" } });
      await settle(1_500);
      expect(receiver.received).toHaveLength(1);
      // --notify replaced STRATUM_NOTIFY, which was not called (the other receiver is unrelated).
      expect(other.received).toHaveLength(0);
      expect(ui.stderr()).not.toContain(SECRET_PATH);
    } finally {
      expect(await ui.stop()).toBe(0);
      await receiver.close();
      await other.close();
    }
  }, 60_000);

  it("announces a gate again after a revise brings the flow back to it, and not after a restart", async () => {
    const receiver = await startReceiver();
    let ui = await startNotifyingUi([], { STRATUM_NOTIFY: `  ${receiver.url} ,` });
    let restarted: Awaited<ReturnType<typeof startNotifyingUi>> | null = null;
    try {
      const flowId = await flowAtGate();
      await receiver.waitFor(1);
      const revised = await mcp.call("stratum_gate_resolve", {
        flow_id: flowId,
        step_id: "approve",
        outcome: "revise",
        rationale: "again",
        resolved_by: "human",
      });
      expect(revised.status).toBe("execute_step");
      await mcp.call("stratum_step_done", {
        flow_id: flowId,
        step_id: "draft",
        result: { text: "Second draft" },
      });
      const [, second] = await receiver.waitFor(2);
      expect(second?.body).toMatchObject({ flow_id: flowId, step_id: "approve" });

      // A new server over the same store: the gates that already wait are not announced again.
      expect(await ui.stop()).toBe(0);
      const before = receiver.received.length;
      restarted = await startNotifyingUi(["--notify", receiver.url]);
      await settle(1_500);
      expect(receiver.received).toHaveLength(before);
      // …but a gate that starts waiting now is.
      const next = await flowAtGate();
      const all = await receiver.waitFor(before + 1);
      expect(all.at(-1)?.body.flow_id).toBe(next);
      ui = restarted;
    } finally {
      await (restarted ?? ui).stop();
      await receiver.close();
    }
  }, 60_000);

  it("tries again after a 500 and after a 429 with Retry-After, and the notification arrives", async () => {
    const receiver = await startReceiver([{ status: 500 }, { status: 429, headers: { "Retry-After": "1" } }]);
    const ui = await startNotifyingUi(["--notify", receiver.url]);
    try {
      const flowId = await flowAtGate();
      const got = await receiver.waitFor(3);
      expect(got.map((r) => r.body.flow_id)).toEqual([flowId, flowId, flowId]);
      // The third came no sooner than the Retry-After second after the second.
      expect((got[2]?.at ?? 0) - (got[1]?.at ?? 0)).toBeGreaterThanOrEqual(950);
      await settle(500);
      expect(receiver.received).toHaveLength(3);
      expect(ui.stderr()).not.toMatch(/warning/);
    } finally {
      await ui.stop();
      await receiver.close();
    }
  }, 60_000);

  it("warns when a receiver stays down, without its secret path, and the page and the other receiver go on", async () => {
    const port = await deadPort();
    const down = `http://127.0.0.1:${port}${SECRET_PATH}`;
    const receiver = await startReceiver();
    const ui = await startNotifyingUi(["--notify", down, "--notify", receiver.url, "--notify-attempts", "2"]);
    try {
      const flowId = await flowAtGate();
      await receiver.waitFor(1);
      const deadline = Date.now() + 15_000;
      while (!/giving up/.test(ui.stderr()) && Date.now() < deadline) await settle(100);
      const err = ui.stderr();
      expect(err).toContain(
        `warning: the notification of gate "approve" of flow ${flowId} to http://127.0.0.1:${port}/… failed 2 time(s)`,
      );
      expect(err).not.toContain(SECRET_PATH);
      expect(err).not.toContain("T0SECRET");
      expect(err).toContain(`notifying http://127.0.0.1:${port}/…, http://127.0.0.1:`);
      // The page's server answers as before.
      const flows = await fetch(`${ui.origin}/api/flows`, {
        headers: { Authorization: `Bearer ${ui.token}` },
      });
      expect(flows.status).toBe(200);
      const list = (await flows.json()) as { flows: { flow_id: string; status: string }[] };
      expect(list.flows.find((f) => f.flow_id === flowId)?.status).toBe("awaiting_gate");
    } finally {
      expect(await ui.stop()).toBe(0);
      await receiver.close();
    }
  }, 60_000);

  it("stops at once on SIGTERM while a receiver holds a request open", async () => {
    const receiver = await startReceiver([{ status: 0 }]);
    const ui = await startNotifyingUi(["--notify", receiver.url]);
    try {
      await flowAtGate();
      await receiver.waitFor(1);
      const started = Date.now();
      expect(await ui.stop()).toBe(0);
      // A request may wait 10 s for its answer; stopping does not wait for it.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it("refuses an address that is not http(s), and a public URL with a query, before serving", async () => {
    await expect(startUi(home, ["--notify", "file:///etc/passwd"])).rejects.toThrow(
      /exited with 2.*must be an http:\/\/ or https:\/\/ URL/s,
    );
    await expect(
      startUi(home, ["--notify", "http://127.0.0.1:9/x", "--public-url", "http://gates.example/?token=x"]),
    ).rejects.toThrow(/exited with 2.*must not have a query/s);
  }, 30_000);
});
