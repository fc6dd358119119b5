// The HTTP layer of `stratumc ui` (ui/server.ts) over a real file store: the token and the
// sessions it is traded for (no cookie), the Host check, credential/Origin/content-type checks on
// the gate POST, the JSON of the flows list and of a flow page with its windows of steps and
// audit, gate resolution with its conflicts, and the change events.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { composeHost, type NodeHost } from "../../host/compose";
import { fromJsonValue } from "../../stdlib/index";
import type { AuditRecord, FlowList, FlowPage, ItemsPage, StepView } from "../../ui/api-types";
import { SESSION_MS, UiAuth } from "../../ui/auth";
import { createUiHandler, type UiHandler } from "../../ui/server";
import { writeBigFlow } from "../hostile/ui-support";
import { GATE_SPEC } from "./gate-spec";

const TOKEN = "test-token-0123456789abcdef";
const ASSETS = { html: "<title>page</title>", js: "/* js */", css: "/* css */" };

let home: string;
let flowHost: NodeHost;
let server: Server;
let handler: UiHandler;
let base: string;
let auth: UiAuth;
let now: number;
let errors: string[];

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), "stratumc-ui-"));
  flowHost = composeHost({
    cwd: home,
    env: { STRATUM_HOME: home },
  });
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  now = Date.now();
  auth = new UiAuth(TOKEN, () => now);
  errors = [];
  handler = createUiHandler({
    flowHost,
    auth,
    assets: ASSETS,
    hosts: new Set([`127.0.0.1:${port}`, `localhost:${port}`]),
    watchDir: join(home, "flows"),
    pollMs: 50,
    logError: (m) => errors.push(m),
  });
  server.on("request", handler.listener);
  base = `http://127.0.0.1:${port}`;
});

afterEach(async () => {
  handler.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(home, { recursive: true, force: true });
  expect(errors).toEqual([]);
});

const bearer = { Authorization: `Bearer ${TOKEN}` };

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(base + path, {
    method: "POST",
    headers: {
      ...bearer,
      "Content-Type": "application/json",
      Origin: base,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** A flow waiting at its gate: plan, then the draft step done. */
async function flowAtGate(): Promise<string> {
  const api = flowHost.api();
  const plan = await api.plan({ spec: GATE_SPEC, flow: "main", inputs: fromJsonValue({ topic: "caching" }) });
  const flowId = String(plan.flow_id);
  const done = await api.stepDone({
    flow_id: flowId,
    step_id: "draft",
    result: fromJsonValue({ text: "<script>alert(1)</script>" }),
  });
  expect(done.status).toBe("await_gate");
  return flowId;
}

async function page(flowId: string): Promise<FlowPage> {
  const r = await fetch(`${base}/api/flows/${flowId}`, { headers: bearer });
  expect(r.status).toBe(200);
  return (await r.json()) as FlowPage;
}

/** A session as the page gets one: POST /api/session with the token. */
async function newSession(): Promise<{ session: string; expires_ms: number; home: string }> {
  const r = await fetch(`${base}/api/session`, { method: "POST", headers: { ...bearer, Origin: base } });
  expect(r.status).toBe(200);
  expect(r.headers.get("set-cookie")).toBeNull();
  return (await r.json()) as { session: string; expires_ms: number; home: string };
}

describe("access", () => {
  it("refuses every API request without the token or a session, and a wrong token", async () => {
    for (const path of ["/api/flows", "/api/events", "/api/flows/x", "/api/flows/x/steps", "/nothing"]) {
      const r = await fetch(base + path);
      expect(r.status, path).toBe(401);
      expect(await r.text()).toContain("token");
    }
    expect((await fetch(`${base}/?token=wrong`, { redirect: "manual" })).status).toBe(401);
    expect((await fetch(`${base}/api/flows`, { headers: { Authorization: "Bearer wrong" } })).status).toBe(
      401,
    );
    const wrong = await fetch(`${base}/api/session`, {
      method: "POST",
      headers: { Authorization: "Bearer wrong" },
    });
    expect(wrong.status).toBe(401);
  });

  it("serves the page's files to anyone, with no secret in them and no cookie", async () => {
    for (const path of ["/", `/?token=${TOKEN}`, "/app.js", "/app.css"]) {
      const r = await fetch(base + path, { redirect: "manual" });
      expect(r.status, path).toBe(200);
      expect(r.headers.get("set-cookie"), path).toBeNull();
      expect(r.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(await r.text()).not.toContain(TOKEN);
    }
  });

  it("trades the token for a session that authorizes as a bearer credential; a cookie counts for nothing", async () => {
    const { session, expires_ms, home: store } = await newSession();
    expect(session).not.toContain(TOKEN);
    expect(expires_ms - now).toBe(SESSION_MS);
    // The store's name, for the page's header: the same as the flow list gives.
    expect(store).toBe(home);
    expect(
      (await fetch(`${base}/api/flows`, { headers: { Authorization: `Bearer ${session}` } })).status,
    ).toBe(200);
    for (const cookie of [`stratumc_ui_1=${session}`, `session=${session}`, `token=${TOKEN}`]) {
      expect((await fetch(`${base}/api/flows`, { headers: { Cookie: cookie } })).status, cookie).toBe(401);
    }
    // Another site cannot have one made: its Origin is refused before the token is looked at.
    const cross = await fetch(`${base}/api/session`, {
      method: "POST",
      headers: { ...bearer, Origin: "http://evil.example" },
    });
    expect(cross.status).toBe(403);
  });

  it("ends a session at its expiry and with the process: a restart with the same token knows none", async () => {
    const { session } = await newSession();
    const withSession = { Authorization: `Bearer ${session}` };
    const restarted = new UiAuth(TOKEN);
    const request = { headers: { authorization: `Bearer ${session}` } } as unknown as Parameters<
      UiAuth["isAuthorized"]
    >[0];
    expect(auth.isAuthorized(request)).toBe(true);
    expect(restarted.isAuthorized(request)).toBe(false);
    now += SESSION_MS - 1;
    expect((await fetch(`${base}/api/flows`, { headers: withSession })).status).toBe(200);
    now += 1;
    expect((await fetch(`${base}/api/flows`, { headers: withSession })).status).toBe(401);
    expect((await fetch(`${base}/api/flows`, { headers: bearer })).status).toBe(200); // the token never expires
  });

  it("refuses a Host that is not the server's address (DNS rebinding)", async () => {
    const r = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${base}/api/flows`);
      import("node:http").then(({ request }) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            headers: { ...bearer, Host: "evil.example:80" },
          },
          (res) => resolve(res.statusCode ?? 0),
        );
        req.on("error", reject);
        req.end();
      }, reject);
    });
    expect(r).toBe(403);
  });
});

describe("flows", () => {
  it("lists flows with the one at a gate first, and its gate", async () => {
    const api = flowHost.api();
    await api.plan({ spec: GATE_SPEC, flow: "main", inputs: fromJsonValue({ topic: "running" }) });
    const gated = await flowAtGate();
    const r = await fetch(`${base}/api/flows`, { headers: bearer });
    const list = (await r.json()) as FlowList;
    expect(list.home).toBe(home);
    expect(list.flows.map((f) => f.status)).toEqual(["awaiting_gate", "running"]);
    expect(list.flows[0]?.flow_id).toBe(gated);
    expect(list.flows[0]?.gate?.step_id).toBe("approve");
    expect(list.flows[0]?.gate?.on_revise).toBe("draft");
    expect(list.flows[1]?.current_step_id).toBe("draft");
  });

  it("shows a flow's steps, graph, audit and source, with the current step's line", async () => {
    const flowId = await flowAtGate();
    const p = await page(flowId);
    expect(p.flow.status).toBe("awaiting_gate");
    expect(p.steps.map((s) => [s.id, s.state])).toEqual([
      ["draft", "done"],
      ["approve", "awaiting_gate"],
    ]);
    expect(p.steps[0]?.output).toEqual({ text: "<script>alert(1)</script>" });
    expect(p.graph?.nodes.map((n) => [n.id, n.kind, n.state])).toEqual([
      ["draft", "function", "done"],
      ["approve", "gate", "awaiting_gate"],
    ]);
    expect(p.graph?.edges).toContainEqual({ from: "approve", to: "draft", route: "revise" });
    expect(p.audit.map((r) => [r.type, r.step_id])).toEqual([["step", "draft"]]);
    expect(p.spec.source).toBe(GATE_SPEC);
    expect([p.spec.first_line, p.spec.line_count]).toEqual([1, GATE_SPEC.split("\n").length - 1]);
    const line = GATE_SPEC.split("\n")[(p.spec.current_step_line ?? 0) - 1];
    expect(line).toContain("- id: approve");
    expect(p.inputs).toEqual({ topic: "caching" });
    // The last commit's time, as the list shows it.
    const list = (await (await fetch(`${base}/api/flows`, { headers: bearer })).json()) as FlowList;
    expect(Math.abs(p.flow.updated_ms - (list.flows[0]?.updated_ms ?? 0))).toBeLessThan(1);
    expect(Date.now() - p.flow.updated_ms).toBeLessThan(60_000);
  });

  it("answers 404 for an unknown flow and an unknown page", async () => {
    const r = await fetch(`${base}/api/flows/no-such-flow`, { headers: bearer });
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await fetch(`${base}/nothing`, { headers: bearer })).status).toBe(404);
  });
});

describe("a long flow, in windows", () => {
  it("sends the window of steps holding the current step and of the latest audit records, no graph", async () => {
    const flowId = writeBigFlow(home, 450);
    const p = await page(flowId);
    expect(p.graph).toBeNull();
    expect([p.steps_offset, p.steps.length, p.steps_total]).toEqual([400, 50, 450]);
    expect(p.steps.at(-1)).toMatchObject({ id: "approve", state: "awaiting_gate" });
    expect([p.audit_offset, p.audit.length, p.audit_total]).toEqual([400, 49, 449]);
    expect(p.flow.current_step_id).toBe("approve");
    // The spec (1,368 lines): the last 1,000, which hold the current step's line.
    const lines = p.spec.source.replace(/\n$/, "").split("\n");
    expect([p.spec.first_line, lines.length, p.spec.line_count]).toEqual([369, 1_000, 1_368]);
    const at = (p.spec.current_step_line ?? 0) - p.spec.first_line;
    expect(lines[at]).toBe("      - id: approve");

    const first = (await (
      await fetch(`${base}/api/flows/${flowId}?steps_offset=0&audit_offset=10&limit=100`, { headers: bearer })
    ).json()) as FlowPage;
    expect(first.steps.map((st) => st.id)).toEqual(Array.from({ length: 100 }, (_, i) => `s${i}`));
    expect(first.steps[5]).toMatchObject({ state: "done", output: { name: "part 5 of the plan, done" } });
    expect(first.audit.map((r) => r.step_id)).toEqual(Array.from({ length: 100 }, (_, i) => `s${i + 10}`));
  });

  it("pages steps and audit records by offset and limit, within 2,000 an answer", async () => {
    const flowId = writeBigFlow(home, 2_500);
    const get = async (path: string): Promise<Response> =>
      fetch(`${base}/api/flows/${flowId}${path}`, { headers: bearer });
    const steps = (await (await get("/steps?offset=200&limit=10")).json()) as ItemsPage<StepView>;
    expect([steps.total, steps.offset, steps.revision]).toEqual([2_500, 200, 1]);
    expect(steps.items.map((st) => st.id)).toEqual(Array.from({ length: 10 }, (_, i) => `s${200 + i}`));
    const audit = (await (await get("/audit?offset=2498")).json()) as ItemsPage<AuditRecord>;
    expect([audit.total, audit.items.map((r) => r.step_id)]).toEqual([2_499, ["s2498"]]);
    const all = (await (await get("/steps?limit=999999")).json()) as ItemsPage<StepView>;
    expect(all.items.length).toBe(2_000);
    const past = (await (await get("/steps?offset=9000")).json()) as ItemsPage<StepView>;
    expect(past.items).toEqual([]);
    for (const bad of ["/steps?offset=-1", "/audit?limit=x", "?steps_offset=1e3"])
      expect((await get(bad)).status, bad).toBe(400);
    expect((await fetch(`${base}/api/flows/nope/steps`, { headers: bearer })).status).toBe(404);
  });

  it("draws the graph of a flow of 100 steps, with all its steps", async () => {
    const p = await page(writeBigFlow(home, 100));
    expect(p.graph?.nodes.length).toBe(100);
    expect([p.steps_offset, p.steps.length]).toEqual([0, 100]);
    expect((await page(writeBigFlow(home, 101))).graph).toBeNull();
  });
});

describe("gates", () => {
  it("approves with a note, recorded as resolved by a human", async () => {
    const flowId = await flowAtGate();
    const before = await page(flowId);
    const r = await post(`/api/flows/${flowId}/gate`, {
      step_id: "approve",
      outcome: "approve",
      note: "Looks right <b>to me</b>",
      revision: before.revision,
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true, outcome: "approve", next: "complete" });
    const after = await page(flowId);
    expect(after.flow.status).toBe("complete");
    const gate = after.audit.find((a) => a.type === "gate");
    expect(gate).toMatchObject({
      outcome: "approve",
      rationale: "Looks right <b>to me</b>",
      resolved_by: "human",
    });
  });

  it("revises back to the draft step, and kills", async () => {
    const flowId = await flowAtGate();
    const revised = await post(`/api/flows/${flowId}/gate`, {
      step_id: "approve",
      outcome: "revise",
      note: "shorter",
      revision: (await page(flowId)).revision,
    });
    expect(await revised.json()).toMatchObject({ ok: true, outcome: "revise", next: "execute_step" });
    expect((await page(flowId)).flow.current_step_id).toBe("draft");

    const other = await flowAtGate();
    const killed = await post(`/api/flows/${other}/gate`, {
      step_id: "approve",
      outcome: "kill",
      note: "not needed",
      revision: (await page(other)).revision,
    });
    expect(await killed.json()).toMatchObject({ ok: true, outcome: "kill" });
    expect((await page(other)).flow.status).toBe("killed");
  });

  it("answers 409 when someone else resolved the gate first, or the flow moved", async () => {
    const flowId = await flowAtGate();
    const seen = (await page(flowId)).revision;
    await flowHost.api().gateResolve({
      flow_id: flowId,
      step_id: "approve",
      outcome: "revise",
      rationale: "by the agent",
      resolved_by: "agent",
    });
    const r = await post(`/api/flows/${flowId}/gate`, {
      step_id: "approve",
      outcome: "approve",
      note: "",
      revision: seen,
    });
    expect(r.status).toBe(409);
    const body = (await r.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("conflict");
    expect(body.error.message).toMatch(/Someone else acted on this flow first/);
    // Back at the same gate with a newer revision: the old page's revision is still refused.
    await flowHost
      .api()
      .stepDone({ flow_id: flowId, step_id: "draft", result: fromJsonValue({ text: "second draft" }) });
    const again = await post(`/api/flows/${flowId}/gate`, {
      step_id: "approve",
      outcome: "approve",
      note: "",
      revision: seen,
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/revision/);
  });

  it("refuses a POST without a bearer credential (a cookie is none), with another Origin, or not JSON; and a malformed body", async () => {
    const flowId = await flowAtGate();
    const body = {
      step_id: "approve",
      outcome: "approve",
      note: "",
      revision: (await page(flowId)).revision,
    };
    const session = (await newSession()).session;
    expect(
      (await post(`/api/flows/${flowId}/gate`, body, { Authorization: "", Cookie: `s=${session}` })).status,
    ).toBe(401);
    expect((await post(`/api/flows/${flowId}/gate`, body, { Origin: "http://evil.example" })).status).toBe(
      403,
    );
    expect((await post(`/api/flows/${flowId}/gate`, body, { "Content-Type": "text/plain" })).status).toBe(
      403,
    );
    const bad = await post(`/api/flows/${flowId}/gate`, { ...body, outcome: "maybe" });
    expect(bad.status).toBe(400);
    expect((await page(flowId)).flow.status).toBe("awaiting_gate");
  });
});

describe("live changes", () => {
  it("sends a change event when a flow is committed", async () => {
    const controller = new AbortController();
    const r = await fetch(`${base}/api/events`, { headers: bearer, signal: controller.signal });
    expect(r.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = r.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const first = await reader.read(); // the retry line: the watch is running
    text += decoder.decode(first.value);
    await new Promise((resolve) => setTimeout(resolve, 120)); // one poll has seen the empty store
    await flowHost.api().plan({ spec: GATE_SPEC, flow: "main", inputs: fromJsonValue({ topic: "live" }) });
    while (!text.includes("event: change")) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    expect(text).toContain("event: change");
    controller.abort();
  });
});

describe("a database store that cannot be reached", () => {
  it("answers 503 store_unavailable naming the store without its password", async () => {
    const down = composeHost({
      cwd: home,
      env: { STRATUM_STORE: "postgres://team:hunter2@127.0.0.1:1/flows" },
    });
    const logged: string[] = [];
    const downHandler = createUiHandler({
      flowHost: down,
      auth,
      assets: ASSETS,
      hosts: null,
      watchDir: null,
      logError: (m) => logged.push(m),
    });
    const downServer = createServer(downHandler.listener);
    await new Promise<void>((resolve) => downServer.listen(0, "127.0.0.1", resolve));
    try {
      const port = (downServer.address() as AddressInfo).port;
      const r = await fetch(`http://127.0.0.1:${port}/api/flows`, { headers: bearer });
      expect(r.status).toBe(503);
      const body = (await r.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("store_unavailable");
      expect(body.error.message).toMatch(
        /^cannot reach the flow store at postgres:\/\/team@127\.0\.0\.1:1\/flows: /,
      );
      expect(JSON.stringify(body) + logged.join("\n")).not.toContain("hunter2");
    } finally {
      downHandler.close();
      downServer.closeAllConnections();
      await new Promise<void>((resolve) => downServer.close(() => resolve()));
      await down.close();
    }
  });
});
