// `stratumc ui --users` over HTTP (ui/server.ts with the people of a users file): each person's token
// signs them in and their session remembers who; a gate each resolves records their name beside
// `resolved_by: "human"` in the audit (the page's and stratum_audit's); a wrong token or a digest
// is refused 401; a person whose may_resolve leaves a gate out sees it read-only and is refused 403.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { composeHost, type NodeHost } from "../../host/compose";
import { fromJsonValue } from "../../stdlib/index";
import type { AuditRecord, FlowPage, ItemsPage } from "../../ui/api-types";
import { UiAuth } from "../../ui/auth";
import { createUiHandler, type UiHandler } from "../../ui/server";
import { tokenSha256Hex } from "../../ui/users";
import { loadPeople } from "../../ui/users-file";
import { GATE_SPEC } from "./gate-spec";

const ADA = "ada-token-0123456789abcdefghijkl";
const BOB = "bob-token-0123456789abcdefghijkl";
const CAROL = "carol-token-0123456789abcdefghij";

let home: string;
let flowHost: NodeHost;
let server: Server;
let handler: UiHandler;
let base: string;
let errors: string[];

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), "stratumc-ui-people-"));
  flowHost = composeHost({ cwd: home, env: { STRATUM_HOME: home } });
  const file = join(home, "people.yaml");
  writeFileSync(
    file,
    `users:
  - {name: ada, token_sha256: ${tokenSha256Hex(ADA)}}
  - {name: bob, token_sha256: ${tokenSha256Hex(BOB)}}
  - name: carol
    token_sha256: ${tokenSha256Hex(CAROL)}
    may_resolve: {gates: [security_review]}
`,
  );
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  errors = [];
  handler = createUiHandler({
    flowHost,
    auth: new UiAuth(loadPeople(file)),
    assets: { html: "<title>page</title>", js: "", css: "" },
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

async function flowAtGate(): Promise<string> {
  const api = flowHost.api();
  const plan = await api.plan({ spec: GATE_SPEC, flow: "main", inputs: fromJsonValue({ topic: "caching" }) });
  const flowId = String(plan.flow_id);
  const done = await api.stepDone({
    flow_id: flowId,
    step_id: "draft",
    result: fromJsonValue({ text: "a draft" }),
  });
  expect(done.status).toBe("await_gate");
  return flowId;
}

/** The page's way in: the person's token traded for a session. */
async function signIn(token: string): Promise<{ session: string; name: string | null }> {
  const r = await fetch(`${base}/api/session`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, Origin: base },
  });
  expect(r.status).toBe(200);
  return (await r.json()) as { session: string; name: string | null };
}

async function page(flowId: string, session: string): Promise<FlowPage> {
  const r = await fetch(`${base}/api/flows/${flowId}`, { headers: { Authorization: `Bearer ${session}` } });
  expect(r.status).toBe(200);
  return (await r.json()) as FlowPage;
}

function resolve(
  flowId: string,
  session: string,
  outcome: string,
  note: string,
  revision: number,
): Promise<Response> {
  return fetch(`${base}/api/flows/${flowId}/gate`, {
    method: "POST",
    headers: { Authorization: `Bearer ${session}`, "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ step_id: "approve", outcome, note, revision }),
  });
}

describe("named reviewers", () => {
  it("signs each person in by their own token; the gate each resolves records their name", async () => {
    const ada = await signIn(ADA);
    const bob = await signIn(BOB);
    expect([ada.name, bob.name]).toEqual(["ada", "bob"]);
    const first = await flowAtGate();
    const second = await flowAtGate();
    const r1 = await resolve(
      first,
      ada.session,
      "approve",
      "looks right",
      (await page(first, ada.session)).revision,
    );
    expect(r1.status).toBe(200);
    const r2 = await resolve(
      second,
      bob.session,
      "kill",
      "not this one",
      (await page(second, bob.session)).revision,
    );
    expect(r2.status).toBe(200);

    // The audit of the page (anyone signed in reads it) …
    const audit = await fetch(`${base}/api/flows/${first}/audit`, {
      headers: { Authorization: `Bearer ${bob.session}` },
    });
    const records = ((await audit.json()) as ItemsPage<AuditRecord>).items.filter((r) => r.type === "gate");
    expect(records).toEqual([
      expect.objectContaining({
        outcome: "approve",
        rationale: "looks right",
        resolved_by: "human",
        resolved_by_name: "ada",
      }),
    ]);
    // … and stratum_audit's (what `stratumc query` and MCP clients read): the reference's keys first, the name last.
    for (const [flowId, name, outcome] of [
      [first, "ada", "approve"],
      [second, "bob", "kill"],
    ] as const) {
      const trace = (await flowHost.api().audit({ flow_id: flowId })).trace as unknown as Record<
        string,
        unknown
      >[];
      const gate = trace.find((r) => r.type === "gate");
      expect(gate).toMatchObject({ outcome, resolved_by: "human", resolved_by_name: name });
      expect(Object.keys(gate ?? {})).toEqual([
        "step_id",
        "outcome",
        "rationale",
        "resolved_by",
        "duration_ms",
        "type",
        "round",
        "round_start_step_id",
        "resolved_by_name",
      ]);
    }
  });

  it("a script's Authorization: Bearer with a person's token is that person", async () => {
    const flowId = await flowAtGate();
    const r = await resolve(flowId, BOB, "approve", "", (await page(flowId, BOB)).revision);
    expect(r.status).toBe(200);
    const trace = (await flowHost.api().audit({ flow_id: flowId })).trace as unknown as Record<
      string,
      unknown
    >[];
    expect(trace.find((x) => x.type === "gate")?.resolved_by_name).toBe("bob");
  });

  it("refuses a wrong token and a token's digest (401), and no page address carries a shared token", async () => {
    for (const wrong of ["wrong-token-0123456789abcdefghij", tokenSha256Hex(ADA)]) {
      const s = await fetch(`${base}/api/session`, {
        method: "POST",
        headers: { Authorization: `Bearer ${wrong}`, Origin: base },
      });
      expect(s.status).toBe(401);
      expect(
        (await fetch(`${base}/api/flows`, { headers: { Authorization: `Bearer ${wrong}` } })).status,
      ).toBe(401);
      expect((await fetch(`${base}/?token=${wrong}`)).status).toBe(401);
    }
    expect((await fetch(`${base}/?token=${ADA}`)).status).toBe(200);
  });

  it("shows a gate read-only to a person whose may_resolve leaves it out, and refuses their decision (403)", async () => {
    const carol = await signIn(CAROL);
    const ada = await signIn(ADA);
    const flowId = await flowAtGate();
    const seen = await page(flowId, carol.session);
    expect(seen.may_resolve).toBe(false);
    expect(seen.gate?.step_id).toBe("approve");
    expect("may_resolve" in (await page(flowId, ada.session))).toBe(false);
    const r = await resolve(flowId, carol.session, "approve", "", seen.revision);
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({
      error: {
        code: "not_permitted",
        message:
          "carol may not resolve gate 'approve' of flow 'main': the users file lets carol resolve the gates security_review (may_resolve). Someone who may resolve it must decide.",
      },
    });
    // Nothing changed: ada still finds the gate at the revision carol saw.
    expect((await page(flowId, ada.session)).revision).toBe(seen.revision);
    expect((await resolve(flowId, ada.session, "approve", "", seen.revision)).status).toBe(200);
  });
});
