// Flow subscriptions across servers on one PostgreSQL store (docs/guides/mcp-server-resources.md):
// two built stratum-mcp processes share a database; a flow one of them plans is listed by the other,
// and a change the second makes reaches the first's subscriber through the store's commit notices.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PgServer, startPostgres } from "../support/postgres";
import { resourceUpdates, toolText } from "./support/resource-updates";
import { type RunningServer, startServer, tempDir } from "./support/server";

const SPEC = `version: "0.2"
contracts:
  Out:
    n: { type: integer }
functions:
  work:
    mode: infer
    intent: "Do the work"
    input: {}
    output: Out
flows:
  one:
    input: {}
    steps:
      - id: only
        function: work
        inputs: {}
`;

describe("flow resources on a PostgreSQL store", () => {
  let pg: PgServer;
  const dir = tempDir("stratum-mcp-resources-pg-");
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) await server.closeInput();
    pg?.destroy();
    dir.dispose();
  });

  it("tells a subscriber of one server about a change another server made", async () => {
    const url = pg.createDatabase("resources");
    const start = async () => {
      const server = await startServer({ cwd: dir.path, home: dir.path, env: { STRATUM_STORE: url } });
      servers.push(server);
      return server;
    };
    const watcher = await start();
    const worker = await start();
    const flowId = toolText(
      await worker.client.callTool({ name: "stratum_plan", arguments: { spec: SPEC, flow: "one" } }),
    ).flow_id as string;
    const uri = `stratum://flows/${flowId}`;

    const { resources } = await watcher.client.listResources();
    expect(resources.map((r) => r.uri)).toContain(uri);

    const heard = resourceUpdates(watcher);
    await watcher.client.subscribeResource({ uri });
    const next = heard.next(15_000);
    const done = toolText(
      await worker.client.callTool({
        name: "stratum_step_done",
        arguments: { flow_id: flowId, step_id: "only", result: { n: 1 } },
      }),
    );
    expect(done.status).toBe("complete");
    expect(await next).toBe(uri);
    const body = JSON.parse(
      ((await watcher.client.readResource({ uri })).contents[0] as { text: string }).text,
    ) as {
      audit: { status: string };
    };
    expect(body.audit.status).toBe("complete");
  });
});
