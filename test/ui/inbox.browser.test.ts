// The inbox, the page's home, in a real browser: the built `stratumc ui` over a real file store,
// flows driven through the engine in this process, Debian's Chromium through playwright-core. The
// person sees the gates waiting, oldest first, with their age and timeout, and the decisions made;
// filters set in the address apply, survive a reload and a shared link, and the back button
// restores the ones before; a gate decided on its page leaves the waiting list for the decisions,
// and one decided elsewhere does so on the open page without a reload. Notes are shown as text.
// A screenshot of the inbox goes to test-results/ui/inbox.png.
import { mkdirSync, readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeHost, type NodeHost } from "../../host/compose";
import { fromJsonValue } from "../../stdlib/index";
import { REPO } from "../cli/run-cli";
import { tempTree } from "../hostile/workspace-support";
import { launchChromium, type RunningUi, startUi } from "./browser-support";
import { GATE_SPEC } from "./gate-spec";

const RELEASE_SPEC = GATE_SPEC.replace(
  "    mode: gate\n",
  '    mode: gate\n    intent: "Sign off the release notes"\n    timeout: 3600\n',
).replace("flows:\n  main:", "flows:\n  release:");
const XSS_NOTE = `Fine by me <img src=x onerror="window.__pwned = 1">`;
const MINUTE = 60_000;
const SHOTS = join(REPO, "test-results/ui");

let tree: ReturnType<typeof tempTree>;
let home: string;
let flowHost: NodeHost;
let browser: Browser;
let ui: RunningUi;

beforeAll(async () => {
  tree = tempTree("stratumc-inbox-browser-");
  home = join(tree.path, "home");
  mkdirSync(home);
  mkdirSync(SHOTS, { recursive: true });
  flowHost = composeHost({ cwd: tree.path, env: { STRATUM_HOME: home } });
  [browser, ui] = await Promise.all([launchChromium(), startUi(home)]);
}, 60_000);

afterAll(async () => {
  const code = await ui?.stop();
  await browser?.close();
  tree?.dispose();
  expect(code).toBe(0);
});

async function flowAtGate(spec: string, flow: string): Promise<string> {
  const api = flowHost.api();
  const plan = await api.plan({ spec, flow, inputs: fromJsonValue({ topic: "caching" }) });
  const flowId = String(plan.flow_id);
  const done = await api.stepDone({
    flow_id: flowId,
    step_id: "draft",
    result: fromJsonValue({ text: "a first draft" }),
  });
  expect(done.status).toBe("await_gate");
  return flowId;
}

/** Makes the flow's last change `agoMs` ago (the store's only time: when the gate started waiting). */
function changedAgo(flowId: string, agoMs: number): void {
  const at = (Date.now() - agoMs) / 1000;
  const dir = join(home, "flows");
  for (const name of readdirSync(dir)) if (name.startsWith(flowId)) utimesSync(join(dir, name), at, at);
}

/** A page logged in through the printed address (with `hash` after it); fails on any script error. */
async function openUi(hash = ""): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => {
    throw e;
  });
  await page.goto(ui.url + hash);
  await page.locator("#inbox-heading").waitFor();
  return page;
}

/** The flow ids of the gates waiting, in the order shown. */
async function waitingIds(page: Page): Promise<string[]> {
  return page
    .locator("#waiting-list li.waiting-gate")
    .evaluateAll((els) => els.map((el) => (el as unknown as { dataset: { flowId: string } }).dataset.flowId));
}

describe("the inbox in Chromium", () => {
  it("shows gates waiting with age and timeout, filters from the address, and moves a decided gate to the decisions", async () => {
    const older = await flowAtGate(GATE_SPEC, "main");
    const release = await flowAtGate(RELEASE_SPEC, "release");
    const decided = await flowAtGate(GATE_SPEC, "main");
    await flowHost.api().gateResolve({
      flow_id: decided,
      step_id: "approve",
      outcome: "approve",
      rationale: XSS_NOTE,
      resolved_by: "human",
    });
    changedAgo(older, 120 * MINUTE + 20_000);
    changedAgo(release, 10 * MINUTE);

    // The home: oldest gate first, its age; the release gate's intent, timeout and when it is due.
    const page = await openUi();
    await page.locator(`#waiting-list li[data-flow-id="${release}"]`).waitFor();
    expect(await waitingIds(page)).toEqual([older, release]);
    // The header names the store (the session gives it).
    expect(await page.locator("#home").textContent()).toBe(home);
    const first = page.locator(`#waiting-list li[data-flow-id="${older}"]`);
    expect(await first.locator(".age").textContent()).toMatch(/^waiting 2 h( 1 min)?$/);
    expect(await first.textContent()).toContain("reviews draft (Write the draft)");
    const second = page.locator(`#waiting-list li[data-flow-id="${release}"]`);
    expect(await second.textContent()).toContain("Sign off the release notes");
    expect(await second.locator(".timeout").textContent()).toMatch(/^timeout 1 h · due in (49|50) min$/);
    const note = page.locator(`#decisions-table tr[data-flow-id="${decided}"] td.decision-note`);
    expect(await note.textContent()).toBe(XSS_NOTE); // shown as text, run as nothing
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator("#app img").count()).toBe(0);
    expect(await page.locator(`#decisions-table tr[data-flow-id="${decided}"] td.by`).textContent()).toBe(
      "human",
    );
    await page.screenshot({ path: join(SHOTS, "inbox.png"), fullPage: true });

    // A filter in the address applies, and a reload keeps it.
    await page.goto(`${ui.origin}/#/?flow=release`);
    await page.waitForFunction(() => {
      const d = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } })
        .document;
      return d.querySelectorAll("#waiting-list li").length === 1;
    });
    expect(await waitingIds(page)).toEqual([release]);
    await page.reload();
    await page.locator(`#waiting-list li[data-flow-id="${release}"]`).waitFor();
    expect(await waitingIds(page)).toEqual([release]);
    expect(await page.locator("#filter-flow").inputValue()).toBe("release");
    expect(await page.locator(`#decisions-table tr[data-flow-id="${decided}"]`).count()).toBe(0);

    // Typing a search writes it into the address; the back button restores the filters before.
    await page.goto(`${ui.origin}/#/`);
    await page.locator(`#waiting-list li[data-flow-id="${older}"]`).waitFor();
    await page.locator("#filter-text").pressSequentially("fine by");
    await page.locator("#waiting-part .empty").waitFor();
    expect(new URL(page.url()).hash).toBe("#/?q=fine+by");
    expect(await page.locator("#decisions-table tbody tr").count()).toBe(1);
    await page.goBack();
    await page.locator(`#waiting-list li[data-flow-id="${older}"]`).waitFor();
    expect(new URL(page.url()).hash).toBe("#/");
    expect(await page.locator("#filter-text").inputValue()).toBe("");
    await page.close();

    // A shared link carries its filters to a new tab.
    const shared = await openUi("#/?status=awaiting_gate&q=release");
    await shared.locator(`#waiting-list li[data-flow-id="${release}"]`).waitFor();
    expect(await waitingIds(shared)).toEqual([release]);
    expect(await shared.locator("#filter-status").inputValue()).toBe("awaiting_gate");
    expect(await shared.locator("#filter-text").inputValue()).toBe("release");
    await shared.close();

    // Decided on its page, the gate leaves the waiting list for the decisions.
    const decide = await openUi();
    await decide.locator(`#waiting-list li[data-flow-id="${older}"] a.gate-link`).click();
    await decide.locator("section#gate").waitFor();
    await decide.fill("#gate-note", "Approved from the inbox");
    await decide.click('button[data-outcome="approve"]');
    await decide
      .locator("#status")
      .filter({ hasText: /approved/i })
      .waitFor();
    await decide.goBack();
    const row = decide.locator(`#decisions-table tr[data-flow-id="${older}"]`);
    await row.waitFor();
    expect(await decide.locator(`#waiting-list li[data-flow-id="${older}"]`).count()).toBe(0);
    expect(await row.getAttribute("data-outcome")).toBe("approve");
    expect(await row.locator("td.decision-note").textContent()).toBe("Approved from the inbox");
    expect(await decide.locator("#decisions-table tbody tr").first().getAttribute("data-flow-id")).toBe(
      older,
    );

    // Decided elsewhere (an agent here), it moves on the open page, without a reload.
    await flowHost.api().gateResolve({
      flow_id: release,
      step_id: "approve",
      outcome: "kill",
      rationale: "Not this week",
      resolved_by: "agent",
    });
    await decide.locator(`#decisions-table tr[data-flow-id="${release}"][data-outcome="kill"]`).waitFor({
      timeout: 5_000,
    });
    await decide.locator("#waiting-part .empty").waitFor();
    await decide.close();
  }, 90_000);
});
