// `stratumc ui --notify` over the PostgreSQL store: the built `stratumc ui` hears the commit of
// another process (the built `stratum-mcp`, over the same database) through LISTEN/NOTIFY and
// posts the gate that starts waiting to a receiver on 127.0.0.1, once.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpServer, startMcp, tempTree } from "../hostile/workspace-support";
import { type PgServer, startPostgres } from "../support/postgres";
import { startUi } from "./browser-support";
import { GATE_SPEC } from "./gate-spec";
import { startReceiver } from "./notify/receiver";

let pg: PgServer;
let tree: ReturnType<typeof tempTree>;
let mcp: McpServer;
let store: string;
let home: string;

beforeAll(async () => {
  pg = await startPostgres();
  store = pg.createDatabase("notify");
  tree = tempTree("stratumc-ui-notify-pg-");
  home = join(tree.path, "home");
  mkdirSync(home);
  mcp = await startMcp(tree.path, home, { STRATUM_STORE: store });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  pg?.destroy();
  tree?.dispose();
});

describe("stratumc ui --notify on the PostgreSQL store", () => {
  it("posts a gate reached by another process once, through LISTEN/NOTIFY", async () => {
    const receiver = await startReceiver();
    const ui = await startUi(home, ["--notify", receiver.url], { STRATUM_STORE: store });
    try {
      const deadline = Date.now() + 15_000;
      while (!/notifying /.test(ui.stderr()) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(ui.stderr()).toMatch(/notifying http:\/\/127\.0\.0\.1:\d+\/…/);
      const plan = await mcp.call("stratum_plan", { spec: GATE_SPEC, flow: "main", inputs: { topic: "pg" } });
      const flowId = String(plan.flow_id);
      const done = await mcp.call("stratum_step_done", {
        flow_id: flowId,
        step_id: "draft",
        result: { text: "A draft on PostgreSQL" },
      });
      expect(done.status, done.text).toBe("await_gate");
      const [note] = await receiver.waitFor(1);
      expect(note?.body).toMatchObject({
        flow_id: flowId,
        step_id: "approve",
        link: `${ui.origin}/#/flow/${flowId}`,
      });
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.received).toHaveLength(1);
    } finally {
      expect(await ui.stop()).toBe(0);
      await receiver.close();
    }
  }, 60_000);
});
