// A call's typed events over MCP (docs/reference/runtime.md §24.3) through the built stratum-mcp: a request
// whose `params._meta` asks with `"stratumc/events": true` gets them in its result's `_meta`; any
// other request is answered without `_meta` and with the same text.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer, tempDir } from "./support/server";

const SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: a
        intent: "Say yes"
        ensure: ["result.ok == True"]
        retries: 2
`;

type Plain = Record<string, unknown>;
const KEY = "stratumc/events";

describe("the events of a call over MCP", () => {
  const home = tempDir("stratum-mcp-events-");
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ cwd: home.path, home: home.path });
  }, 60_000);
  afterAll(async () => {
    await server.closeInput();
    home.dispose();
  });

  const call = (name: string, args: Plain, meta?: Plain) =>
    server.client.callTool({ name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) });

  it("come in the result's _meta only when the request asks", async () => {
    const plain = await call("stratum_plan", { spec: SPEC, flow: "main", inputs: {} });
    expect(plain._meta).toBeUndefined();
    const asked = await call("stratum_plan", { spec: SPEC, flow: "main", inputs: {} }, { [KEY]: true });
    const events = asked._meta?.[KEY] as Plain[];
    expect(events.map((e) => e.type)).toEqual(["flow_started", "step_dispatched"]);
    // Asking with another value is not asking.
    const other = await call("stratum_plan", { spec: SPEC, flow: "main", inputs: {} }, { [KEY]: "yes" });
    expect(other._meta).toBeUndefined();
    const id = String((asked.structuredContent as Plain).flow_id);
    const rejected = await call(
      "stratum_step_done",
      { flow_id: id, step_id: "a", result: { ok: false } },
      {
        [KEY]: true,
      },
    );
    const [finished] = (rejected._meta?.[KEY] ?? []) as Plain[];
    expect(finished).toMatchObject({
      type: "step_finished",
      outcome: "rejected",
      reasons: [{ kind: "ensure_failed", index: 0, text: "ensure 'result.ok == True' failed" }],
    });
    expect(finished).not.toHaveProperty("output");
    // The accepted attempt's stored output comes as JSON.
    const accepted = await call(
      "stratum_step_done",
      { flow_id: id, step_id: "a", result: { ok: true, n: 2, ratio: 0.5, tags: ["x"] } },
      { [KEY]: true },
    );
    const done = ((accepted._meta?.[KEY] ?? []) as Plain[]).find((e) => e.type === "step_finished");
    expect(done).toMatchObject({
      outcome: "accepted",
      output: { ok: true, n: 2, ratio: 0.5, tags: ["x"] },
    });
  });

  it("leave the answer's text as it is", async () => {
    const first = await call("stratum_plan", { spec: SPEC, flow: "main", inputs: {} });
    const second = await call("stratum_plan", { spec: SPEC, flow: "main", inputs: {} }, { [KEY]: true });
    const text = (r: typeof first) =>
      ((r.content as { text: string }[])[0]?.text ?? "").replace(/"flow_id": "[^"]+"/, '"flow_id": ""');
    expect(text(second)).toBe(text(first));
  });
});
