// Named reviewers in a real browser: the built `stratumc ui --users DIR` (people made by the built
// `stratumc ui add-user`), flows driven by the built `stratum-mcp`, Debian's Chromium through
// playwright-core. Each person opens the address add-user printed for them and the header says who
// they are; one approves, and the audit on the other's page and stratum_audit show the name; a
// person whose may_resolve leaves the gate out sees it read-only.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "../cli/run-cli";
import { type McpServer, startMcp, tempTree } from "../hostile/workspace-support";
import { launchChromium, type RunningUi, startUi } from "./browser-support";
import { GATE_SPEC } from "./gate-spec";

let tree: ReturnType<typeof tempTree>;
let browser: Browser;
let ui: RunningUi;
let mcp: McpServer;
const tokens = new Map<string, string>();

/** `stratumc ui add-user NAME --users DIR`: the token of the address it printed. */
function addUser(name: string, dir: string): string {
  ensureBundle();
  const r = spawnSync(
    process.execPath,
    [join(REPO, "bin/stratumc.cjs"), "ui", "add-user", name, "--users", dir],
    {
      encoding: "utf8",
      timeout: 15_000,
    },
  );
  expect(r.status, r.stderr).toBe(0);
  return new URL(r.stdout.trim()).searchParams.get("token") ?? "";
}

beforeAll(async () => {
  tree = tempTree("stratumc-ui-people-browser-");
  const home = join(tree.path, "home");
  const people = join(tree.path, "people");
  mkdirSync(home);
  for (const name of ["ada", "bob", "carol"]) tokens.set(name, addUser(name, people));
  // carol may resolve only the gates of another flow: she sees this one's read-only.
  const carol = JSON.parse(readFileSync(join(people, "carol.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(
    join(people, "carol.json"),
    JSON.stringify({ ...carol, may_resolve: { flows: ["release"] } }),
    {
      mode: 0o600,
    },
  );
  [browser, ui, mcp] = await Promise.all([
    launchChromium(),
    startUi(home, ["--users", people]),
    startMcp(tree.path, home),
  ]);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  const code = await ui?.stop();
  await browser?.close();
  tree?.dispose();
  expect(code).toBe(0);
});

/** A page of its own (its own sessionStorage) signed in as `name` through their address. */
async function openAs(name: string, flowId: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => {
    throw e;
  });
  await page.goto(`${ui.origin}/?token=${encodeURIComponent(tokens.get(name) ?? "")}#/flow/${flowId}`);
  await page
    .locator("#who")
    .filter({ hasText: `Signed in as ${name}` })
    .waitFor();
  expect(new URL(page.url()).search).toBe(""); // the token left the address bar
  return page;
}

async function flowAtGate(): Promise<string> {
  const plan = await mcp.call("stratum_plan", {
    spec: GATE_SPEC,
    flow: "main",
    inputs: { topic: "caching" },
  });
  const flowId = String(plan.flow_id);
  const done = await mcp.call("stratum_step_done", {
    flow_id: flowId,
    step_id: "draft",
    result: { text: "A draft" },
  });
  expect(done.status).toBe("await_gate");
  return flowId;
}

describe("named reviewers in Chromium", () => {
  it("two people sign in with their own addresses; one approves and both pages and the audit show the name", async () => {
    const flowId = await flowAtGate();
    const [ada, bob] = [await openAs("ada", flowId), await openAs("bob", flowId)];
    await bob.locator("section#gate").waitFor();
    // bob's page is to hear of ada's decision live: its event stream must be open before she decides.
    await bob.locator('#live[data-state="live"]').waitFor();
    await ada.locator("section#gate").waitFor();
    await ada.fill("#gate-note", "Reviewed by ada");
    await ada.click('button[data-outcome="approve"]');
    await ada
      .locator("#status")
      .filter({ hasText: /approved/i })
      .waitFor();
    // bob's open page hears of it live, and shows who decided.
    const record = bob.locator('#audit li[data-type="gate"]');
    await record.filter({ hasText: "Reviewed by ada" }).waitFor({ timeout: 10_000 });
    expect(await record.locator(".reviewer").textContent()).toBe("by ada");
    expect(await record.locator(".reviewer").getAttribute("title")).toBe("resolved_by: human");
    await ada.locator('#audit li[data-type="gate"] .reviewer').filter({ hasText: "by ada" }).waitFor();
    const audit = await mcp.call("stratum_audit", { flow_id: flowId });
    const gate = (audit.trace as Record<string, unknown>[]).find((r) => r.type === "gate");
    expect(gate).toMatchObject({
      resolved_by: "human",
      resolved_by_name: "ada",
      rationale: "Reviewed by ada",
    });
    // Both inboxes list the decision with the person's name and the time it was made.
    for (const page of [ada, bob]) {
      await page.evaluate('location.hash = "#/"');
      const row = page.locator(`#decisions-table tr[data-flow-id="${flowId}"]`);
      await row.waitFor({ timeout: 10_000 });
      expect(await row.locator("td.by").textContent()).toBe("ada");
      expect(await row.locator("td.when .before").count()).toBe(0);
    }
    await ada.context().close();
    await bob.context().close();
  }, 60_000);

  it("shows the gate read-only to a person who may not resolve it", async () => {
    const flowId = await flowAtGate();
    const carol = await openAs("carol", flowId);
    const gate = carol.locator("section#gate");
    await gate.waitFor();
    await carol.locator("#gate-read-only").waitFor({ state: "visible" });
    expect(await carol.locator('button[data-outcome="approve"]').isVisible()).toBe(false);
    expect(await carol.locator("#gate-heading").textContent()).toBe("Waiting for a decision");
    const status = await mcp.call("stratum_audit", { flow_id: flowId });
    expect((status.trace as Record<string, unknown>[]).some((r) => r.type === "gate")).toBe(false);
    await carol.context().close();
  }, 60_000);
});
