// At the gate, in a real browser: the built `stratumc ui` on a real file store, the flow driven by
// the built `stratum-mcp`, Debian's Chromium through playwright-core. The draft step has a rejected
// attempt and the gate a revise round; back at the gate the page shows the rejected attempt's
// violation, the earlier revise with its note, the diff with the round before, and the spec
// scrolled to the gate's line. Agents' markup stays text. A screenshot goes to test-results/ui/.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../cli/run-cli";
import { type McpServer, startMcp, tempTree } from "../hostile/workspace-support";
import { launchChromium, type RunningUi, startUi } from "./browser-support";
import { GATE_SPEC } from "./gate-spec";

const SHOTS = join(REPO, "test-results/ui");
// A long header puts the gate far below the spec box's first screen.
const SPEC = `${Array.from({ length: 80 }, (_, i) => `# note ${i + 1}`).join("\n")}\n${GATE_SPEC}`;
const GATE_LINE = SPEC.split("\n").indexOf("      - id: approve") + 1;
const REJECTED = `<img src=x onerror="window.__pwned = 1">`.slice(0, 3); // "<im": too short for the ensure

let tree: ReturnType<typeof tempTree>;
let browser: Browser;
let ui: RunningUi;
let mcp: McpServer;

beforeAll(async () => {
  tree = tempTree("stratumc-ui-gate-review-");
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

async function openFlow(flowId: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => {
    throw e;
  });
  await page.goto(ui.url);
  await page.goto(`${ui.origin}/#/flow/${flowId}`);
  return page;
}

describe("stratumc ui at the gate", () => {
  it("shows the rejected attempt's violation, the earlier revise, the diff and the gate's line", async () => {
    expect(GATE_LINE).toBeGreaterThan(80);
    const plan = await mcp.call("stratum_plan", { spec: SPEC, flow: "main", inputs: { topic: "caching" } });
    const flowId = String(plan.flow_id);
    const rejected = await mcp.call("stratum_step_done", {
      flow_id: flowId,
      step_id: "draft",
      result: { text: REJECTED },
    });
    expect(rejected.status).toBe("ensure_failed");
    const first = await mcp.call("stratum_step_done", {
      flow_id: flowId,
      step_id: "draft",
      result: { text: "A first draft <b>bold</b>" },
    });
    expect(first.status).toBe("await_gate");

    const page = await openFlow(flowId);
    const review = page.locator("section#gate-review");
    await review.waitFor();
    // Round 1: the rejected attempt and the diff with it.
    const violation = review.locator("#review-rejections li.violation");
    await violation.first().waitFor();
    expect(await violation.first().textContent()).toContain("len(result.text) > 3");
    const attemptDiff = review.locator('#review-diff .comparison[data-against="attempt"]');
    expect(await attemptDiff.locator("td.diff-path").allTextContents()).toEqual(["$.text"]);
    expect(await attemptDiff.locator(".diff-old").textContent()).toBe(JSON.stringify(REJECTED));
    expect(await review.locator("#review-decisions").textContent()).toContain(
      "No gate of this flow was decided yet.",
    );

    await page.fill("#gate-note", "Cover <i>eviction</i> too");
    await page.click('button[data-outcome="revise"]');
    await page.locator("section#gate-review").waitFor({ state: "detached" });
    const second = await mcp.call("stratum_step_done", {
      flow_id: flowId,
      step_id: "draft",
      result: { text: "A second draft, with eviction" },
    });
    expect(second.status).toBe("await_gate");

    // Round 2, live: the earlier revise, the diff with round 1, the round-1 rejection still listed.
    const decision = page.locator('#review-decisions li.decision[data-outcome="revise"]');
    await decision.waitFor({ timeout: 10_000 });
    expect(await decision.locator(".note").textContent()).toBe("Cover <i>eviction</i> too");
    expect(await decision.textContent()).toContain("by human");
    expect(await decision.locator("time").count()).toBe(1);
    const roundDiff = page.locator('#review-diff .comparison[data-against="round"]');
    await roundDiff.waitFor();
    expect(await roundDiff.locator(".diff-old").textContent()).toBe('"A first draft <b>bold</b>"');
    expect(await roundDiff.locator(".diff-new").textContent()).toBe('"A second draft, with eviction"');
    expect(await page.locator("#review-rejections li.violation").count()).toBe(1);

    // The spec: the gate's line is highlighted and scrolled into the spec box.
    const excerptGate = page.locator("#review-spec .line.current");
    expect(await excerptGate.getAttribute("data-line")).toBe(String(GATE_LINE));
    await page.click("#show-gate-in-spec");
    const inView = async () =>
      page.evaluate((gateLine) => {
        type Box = { scrollTop: number; clientHeight: number; querySelector(s: string): Line | null };
        type Line = { offsetTop: number; offsetHeight: number; getAttribute(n: string): string | null };
        const doc = (globalThis as unknown as { document: { querySelector(s: string): Box | null } })
          .document;
        const spec = doc.querySelector("#spec");
        const line = spec?.querySelector(".line.current") ?? null;
        if (spec === null || line === null) return { ok: false, line: null };
        const top = line.offsetTop - spec.scrollTop;
        return {
          ok: top >= 0 && top + line.offsetHeight <= spec.clientHeight && spec.scrollTop > 0,
          line: Number(line.getAttribute("data-line")) === gateLine,
        };
      }, GATE_LINE);
    await expect.poll(inView, { timeout: 5_000 }).toEqual({ ok: true, line: true });
    await expect
      .poll(() => page.locator("#spec").evaluate((el) => el.getBoundingClientRect().top), { timeout: 5_000 })
      .toBeLessThan(900);
    await page.screenshot({ path: join(SHOTS, "gate-review.png"), fullPage: true });

    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    await page.close();
  }, 90_000);
});
