// OTLP traces from the built stratum-mcp (docs/guides/tracing.md): a local collector decodes what arrives
// and gets the span tree of a flow with a retry, a sub-flow and a gate; the spans still queued
// when standard input closes are sent before the process exits; spans of one flow join one trace
// across a server restart; a collector that is down costs one warning line and fails no call.
import { afterEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { parseJson } from "../../stdlib/values/json";
import { TRACED_SPEC, TRACED_TREE } from "../host/tracing/fixtures";
import { closedPort, type Receiver, startReceiver } from "../host/tracing/otlp-receiver";
import { siblingsSorted, spanTree } from "../host/tracing/span-tree";
import { McpStratumApi } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

/** Nothing is sent before shutdown unless the batch fills: the flush at exit is what delivers. */
const NO_TIMER = { OTEL_BSP_SCHEDULE_DELAY: "600000" };

const home = tempDir("stratum-mcp-otlp-");
let receiver: Receiver | null = null;
const servers: RunningServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) if (server.child.exitCode === null) await server.kill();
  await receiver?.close();
  receiver = null;
});

async function start(env: Record<string, string>): Promise<{ server: RunningServer; api: McpStratumApi }> {
  const server = await startServer({ cwd: home.path, home: home.path, env });
  servers.push(server);
  return { server, api: new McpStratumApi(async () => server.client) };
}

type Plain = Record<string, unknown>;
const plain = (r: unknown) => wireToPlain(r as never) as Plain;

/** The calls up to the gate; returns the root flow's id. */
async function runToGate(api: McpStratumApi): Promise<string> {
  const plan = plain(await api.plan({ spec: TRACED_SPEC, flow: "main", inputs: parseJson("{}") }));
  const id = String(plan.flow_id);
  const retry = plain(
    await api.stepDone({ flow_id: id, step_id: "draft", result: parseJson('{"ok": false}') }),
  );
  expect(retry.status).toBe("ensure_failed");
  const sub = plain(await api.stepDone({ flow_id: id, step_id: "draft", result: parseJson('{"ok": true}') }));
  expect(sub.status).toBe("execute_flow");
  const child = String(sub.child_flow_id);
  const done = plain(await api.stepDone({ flow_id: child, step_id: "work", result: parseJson('{"v": 1}') }));
  expect(done.status).toBe("complete");
  const completion = parseJson(JSON.stringify(done));
  const gate = plain(await api.stepDone({ flow_id: id, step_id: "sub", result: completion }));
  expect(gate.status).toBe("await_gate");
  return id;
}

async function resolveGate(api: McpStratumApi, id: string): Promise<void> {
  const args = {
    flow_id: id,
    step_id: "review",
    outcome: "approve",
    rationale: "ship it",
    resolved_by: "human",
  };
  expect(plain(await api.gateResolve(args)).status).toBe("complete");
}

describe("stratum-mcp with OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("sends one trace with the flow's span tree (http/json), flushed when standard input closes", async () => {
    receiver = await startReceiver();
    const { server, api } = await start({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "flows-under-test",
      ...NO_TIMER,
    });
    const id = await runToGate(api);
    await resolveGate(api, id);
    expect(api.problems).toEqual([]);
    expect(receiver.requests).toHaveLength(0); // still queued
    expect(await server.closeInput()).toBe(0);
    const spans = receiver.spans();
    expect(siblingsSorted(spanTree(spans))).toEqual(siblingsSorted(TRACED_TREE));
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([id.replaceAll("-", "")]));
    expect(receiver.requests[0]?.resource["service.name"]).toBe("flows-under-test");
    expect(receiver.requests[0]?.contentType).toBe("application/json");
    const gate = spans.find((s) => s.name === "gate review");
    expect(gate?.attributes).toMatchObject({
      "stratum.gate.resolved_by": "human",
      "stratum.gate.rationale": "ship it",
    });
    expect(unexpectedStderr(server.stderr())).toBe("");
  });

  it("joins the spans of one flow into one trace across a server restart (http/protobuf)", async () => {
    receiver = await startReceiver();
    const env = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`, ...NO_TIMER };
    const first = await start(env);
    const id = await runToGate(first.api);
    expect(await first.server.closeInput()).toBe(0);
    expect(receiver.spans()).toHaveLength(5); // the gate and the root flow are still open
    const second = await start(env);
    await resolveGate(second.api, id);
    expect(await second.server.closeInput()).toBe(0);
    const spans = receiver.spans();
    expect(receiver.requests.every((r) => r.contentType === "application/x-protobuf")).toBe(true);
    expect(siblingsSorted(spanTree(spans))).toEqual(siblingsSorted(TRACED_TREE));
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    // The gate was dispatched by the first process: its start is estimated by the second.
    const gate = spans.find((s) => s.name === "gate review");
    expect(gate?.attributes["stratum.start_estimated"]).toBe(true);
  });

  it("a collector that is down: every call answers, one warning line, a prompt exit", async () => {
    const port = await closedPort();
    const { server, api } = await start({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_BSP_SCHEDULE_DELAY: "0",
    });
    for (let i = 0; i < 3; i++) {
      const id = await runToGate(api);
      await resolveGate(api, id);
      await new Promise((r) => setTimeout(r, 50)); // let the exports fail between flows
    }
    expect(api.problems).toEqual([]);
    const began = Date.now();
    expect(await server.closeInput()).toBe(0);
    expect(Date.now() - began).toBeLessThan(2_000);
    const lines = unexpectedStderr(server.stderr())
      .split("\n")
      .filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^stratum-mcp: traces: cannot export to http:\/\/127\.0\.0\.1:\d+\/v1\/traces \(ECONNREFUSED\)/,
    );
  });
});
