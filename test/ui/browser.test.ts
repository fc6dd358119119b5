// `stratumc ui` end to end, in a real browser: the built `stratumc ui` on a real file store, flows
// driven by the built `stratum-mcp` over stdio with the MCP SDK's client, and Debian's Chromium
// driven by playwright-core. A gate appears on the open page without a reload, is resolved with a
// note (approve, revise, kill), the flow goes on and its audit records the note; a stale page meets
// the conflict; agents' markup is shown as text; the token is required; the keyboard alone works.
// Screenshots of the flows list, a flow page and a gate go to test-results/ui/
// (UPDATE_SCREENSHOTS=1 also copies the example's gate to docs/images/ for the README).
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../cli/run-cli";
import { type McpServer, startMcp, tempTree } from "../hostile/workspace-support";
import { launchChromium, type RunningUi, startUi } from "./browser-support";
import { GATE_SPEC } from "./gate-spec";

const SHOTS = join(REPO, "test-results/ui");
const XSS = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`;

let tree: ReturnType<typeof tempTree>;
let browser: Browser;
let ui: RunningUi;
let mcp: McpServer;

beforeAll(async () => {
  tree = tempTree("stratumc-ui-browser-");
  const home = join(tree.path, "home");
  mkdirSync(home);
  mkdirSync(SHOTS, { recursive: true });
  [browser, ui, mcp] = await Promise.all([launchChromium(), startUi(home), startMcp(tree.path, home)]);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  const code = await ui?.stop();
  await browser?.close();
  tree?.dispose();
  expect(code).toBe(0);
});

/** A new page logged in through the printed address; fails the test on any script error or dialog. */
async function openUi(beforeLoad?: (page: Page) => Promise<unknown>): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await beforeLoad?.(page);
  page.on("pageerror", (e) => {
    throw e;
  });
  page.on("dialog", (d) => {
    throw new Error(`a dialog opened: ${d.message()}`);
  });
  await page.goto(ui.url);
  expect(new URL(page.url()).search).toBe(""); // the token left the address bar
  return page;
}

/** A flow planned and driven through the MCP server to its gate; the draft's text as given. */
async function flowAtGate(text = "A first draft of the caching design"): Promise<string> {
  const plan = await mcp.call("stratum_plan", {
    spec: GATE_SPEC,
    flow: "main",
    inputs: { topic: "caching" },
  });
  expect(plan.status).toBe("execute_step");
  const flowId = String(plan.flow_id);
  const done = await mcp.call("stratum_step_done", { flow_id: flowId, step_id: "draft", result: { text } });
  expect(done.status).toBe("await_gate");
  return flowId;
}

/** The focused element's id and data-outcome (the page's DOM, seen from the test's side). */
async function focused(page: Page): Promise<{ id: string | null; outcome: string | null }> {
  return page.evaluate(() => {
    type Focusable = { id: string; getAttribute(name: string): string | null };
    const active = (globalThis as unknown as { document: { activeElement: Focusable | null } }).document
      .activeElement;
    return { id: active?.id ?? null, outcome: active?.getAttribute("data-outcome") ?? null };
  });
}

/** The flow's gate records, every round's (a revise starts a new round), oldest first. */
async function gateRecords(flowId: string): Promise<Record<string, unknown>[]> {
  const audit = await mcp.call("stratum_audit", { flow_id: flowId });
  const rounds = (audit.rounds as { steps: Record<string, unknown>[] }[]).flatMap((r) => r.steps);
  return [...rounds, ...(audit.trace as Record<string, unknown>[])].filter((r) => r.type === "gate");
}

describe("stratumc ui in Chromium", () => {
  it("shows a new gate without a reload, approves it with a note, and the audit records the note", async () => {
    const page = await openUi();
    // The page hears of changes only once its event stream is open (#app is in the page's HTML, so
    // waiting for it waits for nothing): a flow changed before that would never reach it.
    await page.locator('#live[data-state="live"]').waitFor();
    const flowId = await flowAtGate();
    const row = page.locator(`tr[data-flow-id="${flowId}"]`);
    // Live, without a reload: the row may first appear while the flow still runs its first step (the
    // page hears of the flow's start and of its gate as two events), then turns to the gate.
    await page
      .locator(`tr[data-flow-id="${flowId}"][data-status="awaiting_gate"]`)
      .waitFor({ timeout: 5_000 });
    expect(await row.getAttribute("class")).toContain("pending-gate");
    await page.screenshot({ path: join(SHOTS, "flows-list.png"), fullPage: true });

    await row.locator(`a[href="#/flow/${flowId}"]`).first().click();
    const gate = page.locator("section#gate");
    await gate.waitFor();
    expect(await gate.getAttribute("data-step-id")).toBe("approve");
    await page.screenshot({ path: join(SHOTS, "gate.png"), fullPage: true });
    await page.fill("#gate-note", "Ship it — reviewed the <b>design</b>");
    await page.click('button[data-outcome="approve"]');
    await page
      .locator("#status")
      .filter({ hasText: /approved/i })
      .waitFor();
    await page.locator('#steps li[data-step-id="approve"][data-state="done"]').waitFor();
    await page.locator('#audit li[data-type="gate"]').filter({ hasText: "Ship it" }).waitFor();
    await page.screenshot({ path: join(SHOTS, "flow-page.png"), fullPage: true });

    expect(await gateRecords(flowId)).toEqual([
      expect.objectContaining({
        outcome: "approve",
        rationale: "Ship it — reviewed the <b>design</b>",
        resolved_by: "human",
      }),
    ]);
    await page.close();
  }, 60_000);

  it("shows a flow that changed while its change stream was still opening", async () => {
    // The server tells a page only of changes made after its stream opened: the page's first load
    // waits for that, so a change made before it is in what the page loads.
    const page = await openUi((p) =>
      p.route("**/api/events", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue().catch(() => {});
      }),
    );
    const flowId = await flowAtGate("Made while the page was still opening its change stream");
    await page
      .locator(`tr[data-flow-id="${flowId}"][data-status="awaiting_gate"]`)
      .waitFor({ timeout: 5_000 });
    await page.close();
  }, 60_000);

  it("shows a flow opened at its own address, and the store's name, without reading the inbox", async () => {
    // The inbox reads every flow of the store; the server's reader answers one request at a time,
    // so a flow page that asked for it (for the store's name in its header) had a fresh server's
    // first answer of a long flow wait behind that read (seconds, at 10,000 steps).
    const flowId = await flowAtGate("Opened at its own address");
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const asked: string[] = [];
    page.on("request", (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(`${ui.url}#/flow/${flowId}`);
    await page.locator('#steps li[data-step-id="approve"][data-state="awaiting_gate"]').waitFor();
    await expect
      .poll(() => page.locator("#home").textContent(), { timeout: 5_000 })
      .toBe(join(tree.path, "home"));
    expect(asked).toContain(`/api/flows/${flowId}`);
    expect(asked).not.toContain("/api/inbox");
    await page.close();
  }, 60_000);

  it("revises: the flow goes back to the draft step, and the agent is asked again", async () => {
    const flowId = await flowAtGate();
    const page = await openUi();
    await page.goto(`${ui.origin}/#/flow/${flowId}`);
    await page.locator("section#gate").waitFor();
    await page.fill("#gate-note", "Cover eviction too");
    await page.click('button[data-outcome="revise"]');
    await page.locator('#steps li[data-step-id="draft"][data-state="current"]').waitFor();
    expect(await page.locator("section#gate").count()).toBe(0);
    const next = await mcp.call("stratum_step_done", {
      flow_id: flowId,
      step_id: "draft",
      result: { text: "A second draft, with eviction" },
    });
    expect(next.status).toBe("await_gate");
    await page.locator("section#gate").waitFor({ timeout: 5_000 }); // back at the gate, live
    expect((await gateRecords(flowId))[0]).toMatchObject({
      outcome: "revise",
      rationale: "Cover eviction too",
    });
    await page.close();
  }, 60_000);

  it("kills: the flow ends as killed", async () => {
    const flowId = await flowAtGate();
    const page = await openUi();
    await page.goto(`${ui.origin}/#/flow/${flowId}`);
    await page.locator("section#gate").waitFor();
    await page.fill("#gate-note", "Not needed any more");
    await page.click('button[data-outcome="kill"]');
    await page
      .locator("#status")
      .filter({ hasText: /killed/i })
      .waitFor();
    const state = await mcp.call("stratum_audit", { flow_id: flowId });
    expect(state.status).toBe("killed");
    await page.close();
  }, 60_000);

  it("tells the person when someone else resolved the gate first", async () => {
    const flowId = await flowAtGate();
    // No live update (the event stream is refused from the start): the page stays stale.
    const page = await openUi((p) => p.route("**/api/events", (route) => route.abort()));
    await page.goto(`${ui.origin}/#/flow/${flowId}`);
    await page.locator("section#gate").waitFor();
    // Nor a fallback poll while the agent acts: the page keeps getting the flow as it first saw it.
    const flowUrl = `${ui.origin}/api/flows/${flowId}`;
    const stale = await (await fetch(flowUrl, { headers: { Authorization: `Bearer ${ui.token}` } })).text();
    await page.route(flowUrl, (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: stale }),
    );
    await mcp.call("stratum_gate_resolve", {
      flow_id: flowId,
      step_id: "approve",
      outcome: "approve",
      rationale: "the agent was faster",
      resolved_by: "agent",
    });
    await page.unroute(flowUrl);
    await page.fill("#gate-note", "late");
    await page.click('button[data-outcome="approve"]');
    await page
      .locator("#status")
      .filter({ hasText: /already resolved|someone else/i })
      .waitFor();
    await page.locator('#steps li[data-step-id="approve"][data-state="done"]').waitFor(); // as it is now
    expect(await gateRecords(flowId)).toEqual([expect.objectContaining({ resolved_by: "agent" })]);
    await page.close();
  }, 60_000);

  it("shows an agent's markup as text and runs none of it", async () => {
    const flowId = await flowAtGate(XSS);
    const page = await openUi();
    await page.goto(`${ui.origin}/#/flow/${flowId}`);
    await page.locator('#steps li[data-step-id="draft"]').waitFor();
    const value = page.locator('#steps li[data-step-id="draft"] pre.value');
    expect(await value.isVisible()).toBe(true);
    const shown = await value.textContent();
    expect(shown).toContain("<script>window.__pwned = 1</script>");
    expect(shown).toContain('<img src=x onerror="window.__pwned = 2">');
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator("#app img, #app script").count()).toBe(0);
    await page.close();
  }, 60_000);

  it("shows the example code review at its final gate (the README's picture)", async () => {
    const spec = readFileSync(join(REPO, "examples/code-review-gate.stratum.yaml"), "utf8");
    const plan = await mcp.call("stratum_plan", {
      spec,
      flow: "review_loop",
      inputs: { task: "Cache the pricing lookups for 5 minutes" },
    });
    const flowId = String(plan.flow_id);
    const wrote = await mcp.call("stratum_step_done", {
      flow_id: flowId,
      step_id: "write",
      result: {
        branch: "feature/pricing-cache",
        diff_summary: "Adds a 5-minute TTL cache in front of PricingClient.lookup, with metrics",
        files: ["src/pricing/cache.ts", "src/pricing/client.ts", "test/pricing/cache.test.ts"],
      },
    });
    expect(wrote.step_id).toBe("review");
    const reviewed = await mcp.call("stratum_step_done", {
      flow_id: flowId,
      step_id: "review",
      result: {
        verdict: "approve",
        comments: [
          { file: "src/pricing/cache.ts", line: 42, body: "Name the TTL constant", severity: "nit" },
        ],
      },
    });
    expect(reviewed.status).toBe("await_gate");
    const page = await openUi();
    await page.goto(`${ui.origin}/#/flow/${flowId}`);
    await page.locator('section#gate[data-step-id="approve"]').waitFor();
    await page.locator('#graph g.node.state-skipped[data-step-id="security"]').waitFor();
    expect(await page.locator("#graph g.node").count()).toBeGreaterThanOrEqual(6);
    await page.fill("#gate-note", "Reviewed the cache invalidation; ship it.");
    await page.screenshot({ path: join(SHOTS, "example-gate.png") });
    if (process.env.UPDATE_SCREENSHOTS === "1") {
      mkdirSync(join(REPO, "docs/images"), { recursive: true });
      copyFileSync(join(SHOTS, "example-gate.png"), join(REPO, "docs/images/ui-gate.png"));
    }
    await page.close();
  }, 60_000);

  it("refuses requests without the token", async () => {
    for (const path of ["/api/flows", "/api/events"]) {
      const r = await fetch(ui.origin + path);
      expect(r.status, path).toBe(401);
    }
    const page = await browser.newPage();
    const answer = await page.goto(`${ui.origin}/`);
    expect(answer?.status()).toBe(200); // the page's files hold no secret
    await page.locator("#needs-token").waitFor();
    expect(await page.textContent("#needs-token")).toContain("token");
    expect(await page.locator("#app table, #steps").count()).toBe(0);
    await page.close();
  }, 60_000);

  it("works with the keyboard alone", async () => {
    const flowId = await flowAtGate();
    const page = await openUi();
    await page.goto(`${ui.origin}/#/flow/${flowId}`);
    await page.locator("section#gate").waitFor();
    // Tab until the note has the focus, type, then Tab to Approve and press Enter.
    for (let i = 0; i < 40 && (await focused(page)).id !== "gate-note"; i++) await page.keyboard.press("Tab");
    expect((await focused(page)).id).toBe("gate-note");
    await page.keyboard.type("Approved from the keyboard");
    for (let i = 0; i < 5 && (await focused(page)).outcome !== "approve"; i++)
      await page.keyboard.press("Tab");
    expect((await focused(page)).outcome).toBe("approve");
    await page.keyboard.press("Enter");
    await page
      .locator("#status")
      .filter({ hasText: /approved/i })
      .waitFor();
    expect((await gateRecords(flowId))[0]).toMatchObject({ rationale: "Approved from the keyboard" });
    await page.close();
  }, 60_000);
});
