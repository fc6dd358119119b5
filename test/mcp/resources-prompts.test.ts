// Resources and prompts of the built stratum-mcp through the SDK's client over stdio
// (docs/guides/mcp-server-resources.md): a flow planned by stratum_plan listed and read as
// `stratum://flows/<id>`, a subscription told of step_done (by this server and by another process
// on the same store), the spec schema resource, the skills as prompts, and the errors.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../cli/run-cli";
import { resourceUpdates, toolText } from "./support/resource-updates";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

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
  two:
    input: {}
    steps:
      - id: first
        function: work
        inputs: {}
      - id: second
        function: work
        inputs: {}
`;

type Plain = Record<string, unknown>;

async function rpcCode(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (e) {
    if (e instanceof McpError) return e.code;
    throw e;
  }
  throw new Error("expected a JSON-RPC error");
}

describe("stratum-mcp resources and prompts", () => {
  const home = tempDir("stratum-mcp-resources-");
  let server: RunningServer;
  let flowId = "";

  beforeAll(async () => {
    server = await startServer({ cwd: home.path, home: home.path });
    const planned = await server.client.callTool({
      name: "stratum_plan",
      arguments: { spec: SPEC, flow: "two" },
    });
    flowId = toolText(planned).flow_id as string;
  });
  afterAll(async () => {
    await server.closeInput();
    home.dispose();
  });

  it("declares resources with subscriptions, and prompts", () => {
    const caps = server.client.getServerCapabilities();
    expect(caps?.resources).toEqual({ subscribe: true });
    expect(caps?.prompts).toEqual({});
  });

  it("lists the schema and the planned flow, and the flow template", async () => {
    const { resources, nextCursor } = await server.client.listResources();
    expect(nextCursor).toBeUndefined();
    expect(resources[0]).toMatchObject({
      uri: "stratum://schema/stratum.schema.json",
      mimeType: "application/schema+json",
    });
    expect(resources.slice(1)).toEqual([
      {
        uri: `stratum://flows/${flowId}`,
        name: flowId,
        title: "two",
        description: "running: 0 of 2 steps done, at first",
        mimeType: "application/json",
        annotations: { lastModified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      },
    ]);
    const { resourceTemplates } = await server.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["stratum://flows/{flow_id}"]);
  });

  it("reads the flow: its state and the same audit stratum_audit answers", async () => {
    const read = await server.client.readResource({ uri: `stratum://flows/${flowId}` });
    expect(read.contents).toHaveLength(1);
    const content = read.contents[0] as { uri: string; mimeType: string; text: string };
    expect(content).toMatchObject({ uri: `stratum://flows/${flowId}`, mimeType: "application/json" });
    const body = JSON.parse(content.text) as { flow: Plain; audit: Plain };
    expect(Object.keys(body)).toEqual(["flow", "audit"]);
    expect(body.flow).toMatchObject({
      flow_id: flowId,
      flow_name: "two",
      status: "running",
      current_step_id: "first",
      step_count: 2,
    });
    const audit = toolText(
      await server.client.callTool({ name: "stratum_audit", arguments: { flow_id: flowId } }),
    );
    // total_duration_ms grows with the clock; everything else is the tool's answer.
    expect({ ...body.audit, total_duration_ms: 0 }).toEqual({ ...audit, total_duration_ms: 0 });
  });

  it("reads the spec schema resource: the text `stratumc schema` prints", async () => {
    const read = await server.client.readResource({ uri: "stratum://schema/stratum.schema.json" });
    const content = read.contents[0] as { mimeType: string; text: string };
    expect(content.mimeType).toBe("application/schema+json");
    expect(content.text).toBe(readFileSync(join(REPO, "schema/stratum.schema.json"), "utf8"));
  });

  it("answers an unknown flow, a foreign URI and a bad cursor with JSON-RPC errors", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(await rpcCode(server.client.readResource({ uri: `stratum://flows/${unknown}` }))).toBe(-32002);
    expect(await rpcCode(server.client.readResource({ uri: "stratum://flows/../etc/passwd" }))).toBe(-32002);
    expect(await rpcCode(server.client.readResource({ uri: "file:///etc/passwd" }))).toBe(-32002);
    expect(await rpcCode(server.client.subscribeResource({ uri: `stratum://flows/${unknown}` }))).toBe(
      -32002,
    );
    expect(await rpcCode(server.client.listResources({ cursor: "not-a-cursor" }))).toBe(-32602);
  });

  it("tells a subscriber when step_done changes the flow, and no more after unsubscribing", async () => {
    const uri = `stratum://flows/${flowId}`;
    const heard = resourceUpdates(server);
    await server.client.subscribeResource({ uri });
    const next = heard.next(10_000);
    await server.client.callTool({
      name: "stratum_step_done",
      arguments: { flow_id: flowId, step_id: "first", result: { n: 1 } },
    });
    expect(await next).toBe(uri);
    const body = JSON.parse(
      ((await server.client.readResource({ uri })).contents[0] as { text: string }).text,
    ) as { flow: Plain };
    expect(body.flow.current_step_id).toBe("second");

    // A second server on the same store changes the flow: the first hears of it by polling.
    const other = await startServer({ cwd: home.path, home: home.path });
    try {
      const fromOther = heard.next(10_000);
      await other.client.callTool({
        name: "stratum_step_done",
        arguments: { flow_id: flowId, step_id: "second", result: { n: 2 } },
      });
      expect(await fromOther).toBe(uri);
    } finally {
      await other.closeInput();
    }

    await server.client.unsubscribeResource({ uri });
    const count = heard.uris.length;
    await server.client.callTool({ name: "stratum_audit", arguments: { flow_id: flowId } });
    await new Promise((r) => setTimeout(r, 1500));
    expect(heard.uris).toHaveLength(count);
  });

  it("lists the bundled skills as prompts and gets one as a user message", async () => {
    const { prompts } = await server.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      "stratum-build",
      "stratum-debug",
      "stratum-feature",
      "stratum-learn",
      "stratum-migrate",
      "stratum-onboard",
      "stratum-plan",
      "stratum-refactor",
      "stratum-review",
      "stratum-speckit",
      "stratum-test",
    ]);
    const plan = prompts.find((p) => p.name === "stratum-plan");
    expect(plan).toMatchObject({
      title: "Plan a change with Stratum (no code)",
      description: expect.stringMatching(/^Produce a reviewed design/),
      arguments: [{ name: "request", required: false }],
    });
    const got = await server.client.getPrompt({
      name: "stratum-plan",
      arguments: { request: "add a --dry-run flag" },
    });
    expect(got.messages).toHaveLength(1);
    const [message] = got.messages;
    if (message === undefined) throw new Error("no message");
    expect(message.role).toBe("user");
    const text = (message.content as { type: string; text: string }).text;
    expect(text.startsWith("# Plan a change with Stratum (no code)\n")).toBe(true);
    expect(text).not.toContain("description:");
    expect(text.endsWith("## The request\n\nadd a --dry-run flag\n")).toBe(true);
    expect(await rpcCode(server.client.getPrompt({ name: "stratum-nope" }))).toBe(-32602);
  });

  it("wrote nothing unexpected to standard error", () => {
    expect(unexpectedStderr(server.stderr())).toBe("");
  });
});
