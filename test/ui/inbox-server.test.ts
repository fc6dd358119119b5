// `GET /api/inbox` of `stratumc ui` (ui/inbox-view.ts) over a real file store: the gates waiting
// with what they approve, their age and timeout; the decisions recorded in every flow with who,
// outcome and note; the flows; the filters (status, flow name, text, outcome); the order of each
// list; and the windows that keep every answer small however many flows the store holds.
import { mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { composeHost, type NodeHost } from "../../host/compose";
import { fromJsonValue } from "../../stdlib/index";
import type { InboxView } from "../../ui/api-types";
import { UiAuth } from "../../ui/auth";
import { createUiHandler, type UiHandler } from "../../ui/server";
import { writeBigFlow } from "../hostile/ui-support";
import { GATE_SPEC } from "./gate-spec";

const TOKEN = "test-token-0123456789abcdef";
const bearer = { Authorization: `Bearer ${TOKEN}` };

/** GATE_SPEC with a gate that times out after an hour, and a second flow of another name. */
const TIMEOUT_SPEC = GATE_SPEC.replace(
  "    mode: gate\n",
  '    mode: gate\n    intent: "Sign off the draft"\n    timeout: 3600\n',
).replace("flows:\n  main:", "flows:\n  release:");

let home: string;
let flowHost: NodeHost;
let server: Server;
let handler: UiHandler;
let base: string;
let errors: string[];

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), "stratumc-inbox-"));
  flowHost = composeHost({ cwd: home, env: { STRATUM_HOME: home } });
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  errors = [];
  handler = createUiHandler({
    flowHost,
    auth: new UiAuth(TOKEN),
    assets: { html: "", js: "", css: "" },
    hosts: new Set([`127.0.0.1:${port}`]),
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

async function inbox(query = ""): Promise<InboxView> {
  const r = await fetch(`${base}/api/inbox${query}`, { headers: bearer });
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as InboxView;
}

/** A flow of `spec`'s only flow, waiting at its gate after a draft with `text`. */
async function flowAtGate(spec = GATE_SPEC, text = "a first draft"): Promise<string> {
  const api = flowHost.api();
  const name = spec.includes("  release:") ? "release" : "main";
  const plan = await api.plan({ spec, flow: name, inputs: fromJsonValue({ topic: "caching" }) });
  const flowId = String(plan.flow_id);
  const done = await api.stepDone({ flow_id: flowId, step_id: "draft", result: fromJsonValue({ text }) });
  expect(done.status).toBe("await_gate");
  return flowId;
}

async function resolve(flowId: string, outcome: "approve" | "revise" | "kill", note: string): Promise<void> {
  const answer = await flowHost.api().gateResolve({
    flow_id: flowId,
    step_id: "approve",
    outcome,
    rationale: note,
    resolved_by: "human",
  });
  expect(answer.status).not.toBe("error");
}

/** Sets the modification time of every file of the flow (the store's "last change"). */
function setUpdated(flowId: string, ms: number): void {
  const dir = join(home, "flows");
  for (const name of readdirSync(dir))
    if (name.startsWith(flowId)) utimesSync(join(dir, name), ms / 1000, ms / 1000);
}

describe("GET /api/inbox", () => {
  it("shows a waiting gate with what it approves, since when and its timeout; decided, it moves to the decisions", async () => {
    const flowId = await flowAtGate(TIMEOUT_SPEC);
    const since = Date.UTC(2026, 0, 2, 3, 4, 5);
    setUpdated(flowId, since);
    const before = await inbox();
    expect(before.waiting).toEqual({
      total: 1,
      offset: 0,
      items: [
        {
          flow_id: flowId,
          flow_name: "release",
          step_id: "approve",
          function: "review",
          intent: "Sign off the draft",
          reviews: [{ step_id: "draft", intent: "Write the draft" }],
          round: 0,
          since_ms: since,
          timeout: 3600,
          expires_ms: since + 3_600_000,
          parent_flow_id: null,
        },
      ],
    });
    expect(before.decisions).toEqual({ total: 0, offset: 0, items: [] });
    expect(before.flows.items.map((f) => [f.flow_id, f.status])).toEqual([[flowId, "awaiting_gate"]]);
    expect([before.flow_count, before.waiting_count, before.flow_names]).toEqual([1, 1, ["release"]]);

    const r = await fetch(`${base}/api/flows/${flowId}/gate`, {
      method: "POST",
      headers: { ...bearer, "Content-Type": "application/json", Origin: base },
      body: JSON.stringify({ step_id: "approve", outcome: "approve", note: "Ship <b>it</b>", revision: 2 }),
    });
    expect(r.status).toBe(200);
    const decidedBetween = [Date.now() - 60_000, Date.now()];
    const after = await inbox();
    expect(after.waiting.total).toBe(0);
    expect(after.decisions.items).toEqual([
      expect.objectContaining({
        flow_id: flowId,
        flow_name: "release",
        flow_status: "complete",
        step_id: "approve",
        outcome: "approve",
        resolved_by: "human",
        note: "Ship <b>it</b>",
        round: 0,
        index: 1,
        last_in_flow: true,
      }),
    ]);
    expect(after.decisions.items[0]?.flow_updated_ms).toBe(after.flows.items[0]?.updated_ms);
    // The review log keeps when the decision was made, so the inbox gives it exactly.
    const at = after.decisions.items[0]?.at_ms ?? null;
    expect(at).not.toBeNull();
    expect(at).toBeGreaterThanOrEqual(decidedBetween[0] as number);
    expect(at).toBeLessThanOrEqual(decidedBetween[1] as number);
  });

  it("orders gates oldest first and decisions newest first (by the flow's last change, then the flow's order)", async () => {
    const a = await flowAtGate();
    const b = await flowAtGate();
    const c = await flowAtGate();
    setUpdated(a, 3_000_000_000_000);
    setUpdated(b, 1_000_000_000_000);
    setUpdated(c, 2_000_000_000_000);
    expect((await inbox()).waiting.items.map((g) => g.flow_id)).toEqual([b, c, a]);

    // d: revised, drafted again, killed (two decisions); e: approved, older.
    const d = await flowAtGate();
    await resolve(d, "revise", "more detail");
    await flowHost.api().stepDone({ flow_id: d, step_id: "draft", result: fromJsonValue({ text: "again" }) });
    await resolve(d, "kill", "not worth it");
    const e = await flowAtGate();
    await resolve(e, "approve", "fine");
    setUpdated(d, 2_500_000_000_000);
    setUpdated(e, 1_500_000_000_000);
    const decisions = (await inbox()).decisions.items;
    expect(decisions.map((x) => [x.flow_id, x.outcome, x.note, x.round, x.last_in_flow])).toEqual([
      [d, "kill", "not worth it", 1, true],
      [d, "revise", "more detail", 0, false],
      [e, "approve", "fine", 0, true],
    ]);
  });

  it("filters every list by status, flow name, text (id, name, gate, note) and outcome", async () => {
    const waitingMain = await flowAtGate();
    const waitingRelease = await flowAtGate(TIMEOUT_SPEC);
    const approved = await flowAtGate();
    await resolve(approved, "approve", "Looks right to Ada");
    const killed = await flowAtGate(TIMEOUT_SPEC);
    await resolve(killed, "kill", "Wrong approach");
    const ids = (v: InboxView) => ({
      waiting: v.waiting.items.map((g) => g.flow_id).sort(),
      decisions: v.decisions.items.map((d) => d.flow_id).sort(),
      flows: v.flows.items.map((f) => f.flow_id).sort(),
    });

    expect(ids(await inbox("?flow=release"))).toEqual({
      waiting: [waitingRelease],
      decisions: [killed],
      flows: [waitingRelease, killed].sort(),
    });
    expect(ids(await inbox("?status=finished"))).toEqual({
      waiting: [],
      decisions: [approved, killed].sort(),
      flows: [approved, killed].sort(),
    });
    expect(ids(await inbox("?status=awaiting_gate"))).toEqual({
      waiting: [waitingMain, waitingRelease].sort(),
      decisions: [],
      flows: [waitingMain, waitingRelease].sort(),
    });
    // Text: a note, case-insensitive; a gate's intent; a flow id's prefix. Searched text holds a
    // letter no flow id has (ids are random hexadecimal, and a search matches anywhere in an id).
    expect(ids(await inbox("?q=TO%20ADA"))).toEqual({ waiting: [], decisions: [approved], flows: [] });
    expect(ids(await inbox("?q=sign%20off"))).toEqual({
      waiting: [waitingRelease],
      decisions: [],
      flows: [],
    });
    expect(ids(await inbox(`?q=${waitingMain.slice(0, 13)}`))).toEqual({
      waiting: [waitingMain],
      decisions: [],
      flows: [waitingMain],
    });
    expect(ids(await inbox("?outcome=kill")).decisions).toEqual([killed]);
    // The counts say what the store holds, whatever the filters.
    const filtered = await inbox("?q=nothing-matches-this");
    expect([filtered.flow_count, filtered.waiting_count, filtered.flows.total]).toEqual([4, 2, 0]);
    expect(filtered.flow_names).toEqual(["main", "release"]);
  });

  it("cuts each list to `limit` items from its offset, at most 200, and refuses malformed queries", async () => {
    const flows: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await flowAtGate();
      setUpdated(id, 1_000_000_000_000 + i * 1000);
      flows.push(id);
    }
    const first = await inbox("?limit=2");
    expect(first.waiting).toMatchObject({ total: 5, offset: 0 });
    expect(first.waiting.items.map((g) => g.flow_id)).toEqual(flows.slice(0, 2));
    const third = await inbox("?limit=2&waiting_offset=4&flows_offset=4");
    expect(third.waiting.items.map((g) => g.flow_id)).toEqual(flows.slice(4));
    expect(third.flows).toMatchObject({ total: 5, offset: 4 });
    expect(third.flows.items).toHaveLength(1);
    expect((await inbox("?limit=999999")).waiting.items).toHaveLength(5);

    for (const query of [
      "?limit=-1",
      "?limit=x",
      "?waiting_offset=1.5",
      "?status=done",
      "?outcome=maybe",
      `?q=${"x".repeat(201)}`,
    ]) {
      const r = await fetch(`${base}/api/inbox${query}`, { headers: bearer });
      expect(r.status, query).toBe(400);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("bad_request");
    }
    expect((await fetch(`${base}/api/inbox`)).status).toBe(401);
  });

  it("answers a store of 2,000 flows with 50 items a list (a few dozen KB)", async () => {
    for (let i = 0; i < 2_000; i++) writeBigFlow(home, 2);
    const r = await fetch(`${base}/api/inbox`, { headers: bearer });
    const text = await r.text();
    const view = JSON.parse(text) as InboxView;
    expect([view.flow_count, view.waiting.total, view.flows.total]).toEqual([2_000, 2_000, 2_000]);
    expect([view.waiting.items.length, view.flows.items.length]).toEqual([50, 50]);
    expect(text.length).toBeLessThan(60_000);
  }, 60_000);
});
