// The link of a `stratumc ui --notify` notification, in Chromium (playwright-core, Debian's
// Chromium): the built `stratumc ui` notifies a receiver on 127.0.0.1 when a flow driven by the
// built `stratum-mcp` reaches its gate; the link carries no credential, so a tab without a session
// is asked to sign in; the printed address with the link's fragment signs in and lands on the
// gate; a tab that has a session opens the gate from the link itself, and approves it there.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpServer, startMcp, tempTree } from "../hostile/workspace-support";
import { launchChromium, type RunningUi, startUi } from "./browser-support";
import { type Receiver, startReceiver } from "./notify/receiver";

/** A gate with an intent and a timeout: both reach the notification. */
const SPEC = `version: "0.2"
contracts:
  Draft:
    text: {type: string}
functions:
  write:
    mode: infer
    intent: "Write the draft"
    input: {topic: {type: string}}
    output: Draft
  review:
    mode: gate
    intent: "Approve the draft before it is published"
    timeout: 3600
flows:
  main:
    input: {topic: {type: string}}
    steps:
      - id: draft
        function: write
        inputs: {topic: "$.input.topic"}
      - id: publish_ok
        function: review
        on_approve: ~
        on_revise: draft
        on_kill: ~
        depends_on: [draft]
`;

let tree: ReturnType<typeof tempTree>;
let browser: Browser;
let ui: RunningUi;
let mcp: McpServer;
let receiver: Receiver;

beforeAll(async () => {
  tree = tempTree("stratumc-ui-notify-browser-");
  const home = join(tree.path, "home");
  mkdirSync(home);
  receiver = await startReceiver();
  [browser, ui, mcp] = await Promise.all([
    launchChromium(),
    startUi(home, ["--notify", receiver.url]),
    startMcp(tree.path, home),
  ]);
  const deadline = Date.now() + 15_000;
  while (!/notifying /.test(ui.stderr()) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  const code = await ui?.stop();
  await browser?.close();
  await receiver?.close();
  tree?.dispose();
  expect(code).toBe(0);
});

async function newPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => {
    throw e;
  });
  return page;
}

describe("a notification's link in Chromium", () => {
  it("opens the gate's page once signed in, and the gate is resolved there", async () => {
    const plan = await mcp.call("stratum_plan", { spec: SPEC, flow: "main", inputs: { topic: "caching" } });
    const flowId = String(plan.flow_id);
    const done = await mcp.call("stratum_step_done", {
      flow_id: flowId,
      step_id: "draft",
      result: { text: "Draft" },
    });
    expect(done.status, done.text).toBe("await_gate");

    const [note] = await receiver.waitFor(1);
    const body = note?.body ?? {};
    expect(body).toMatchObject({
      flow_id: flowId,
      step_id: "publish_ok",
      approves: "Approve the draft before it is published",
      timeout_seconds: 3600,
    });
    expect(String(body.text)).toContain("It times out after 1 h.");
    const link = String(body.link);
    expect(link).toBe(`${ui.origin}/#/flow/${flowId}`);
    expect(link).not.toContain(ui.token);

    // A tab with no session: the link alone grants nothing.
    const page = await newPage();
    await page.goto(link);
    await page.locator("#needs-token").waitFor();
    expect(await page.locator("section#gate").count()).toBe(0);

    // The printed address with the link's fragment signs in and lands on the gate.
    await page.goto(`${ui.url}${new URL(link).hash}`);
    const gate = page.locator("section#gate");
    await gate.waitFor();
    expect(await gate.getAttribute("data-step-id")).toBe("publish_ok");
    expect(new URL(page.url()).search).toBe(""); // the token left the address bar
    expect(new URL(page.url()).hash).toBe(`#/flow/${flowId}`);

    // That tab has a session now: the link itself opens the gate, which is approved from it.
    await page.goto(`${ui.origin}/#/`);
    await page.locator(`tr[data-flow-id="${flowId}"]`).waitFor();
    await page.goto(link);
    await gate.waitFor();
    await page.fill("#gate-note", "Published after the notification");
    await page.click('button[data-outcome="approve"]');
    await page
      .locator("#status")
      .filter({ hasText: /approved/i })
      .waitFor();
    const audit = await mcp.call("stratum_audit", { flow_id: flowId });
    expect(audit.trace).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: "gate",
          outcome: "approve",
          rationale: "Published after the notification",
        }),
      ]),
    );
    // One notification for the one waiting period.
    expect(receiver.received).toHaveLength(1);
    await page.close();
  }, 60_000);
});
