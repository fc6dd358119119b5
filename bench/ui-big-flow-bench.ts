// `stratumc ui` on a flow of 10,000 steps (docs/guides/ui.md "Big flows"): the built server's first read
// of the flow (decoding the file and checking its spec, in the server's worker thread), the style
// sheet asked for during that read, and the time from opening the printed address at the flow in
// Debian's Chromium to its current step drawn (what the person came to decide), with the page's
// element count: once the server has read the flow (the target), and on a server that has not
// (the address opened first thing: the page draws the unchecked first answer). The baseline, in the same
// rounds: the same address at a route without a flow. A fresh server per run. The flow is stored as
// a long flow at its gate is on the file store: a snapshot and the journal entries of its last
// calls (JOURNAL_CALLS, run by the engine), which the first answer applies too.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { writeJournaledBigFlow } from "../test/hostile/ui-support";
import { launchChromium } from "../test/ui/chromium";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";
import { startUi } from "./lib/ui-server";

type Browser = Awaited<ReturnType<typeof launchChromium>>;

const RUNS = 3;
const RENDERS = 5;
const STEPS = 10_000;
const JOURNAL_CALLS = 100;

export async function benchUiBigFlow(repoDir: string): Promise<Row[]> {
  const home = mkdtempSync(join(tmpdir(), "stratumc-ui-big-bench-"));
  const browser = await launchChromium();
  const reads: number[] = [];
  const firsts: number[] = [];
  const sheets: number[] = [];
  const renders: number[] = [];
  const wholes: number[] = [];
  const shells: number[] = [];
  const colds: number[] = [];
  const elements: number[] = [];
  const loadBefore = loadavg()[0] ?? 0;
  try {
    const flowId = await writeJournaledBigFlow(home, STEPS, JOURNAL_CALLS);
    for (let run = 0; run < RUNS; run++) {
      // The server's first read inside the page's wait: no request of the flow before the page's.
      const fresh = await startUi(repoDir, home);
      try {
        colds.push((await openFlow(browser, fresh.url, flowId)).ms);
      } finally {
        await fresh.stop();
      }
      const ui = await startUi(repoDir, home);
      try {
        const auth = { Authorization: `Bearer ${ui.token}` };
        const t0 = performance.now();
        // The first answer of a long flow not read yet is unchecked (ui/first-page.ts); the page
        // asks again at once, and that answer waits for the whole read.
        const ask = async (): Promise<boolean> =>
          (
            (await (await fetch(`${ui.origin}/api/flows/${flowId}`, { headers: auth })).json()) as {
              unchecked?: true;
            }
          ).unchecked === true;
        const read = ask().then(async (unchecked) => {
          firsts.push(performance.now() - t0);
          if (unchecked) await ask();
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
        const t1 = performance.now();
        await (await fetch(`${ui.origin}/app.css`)).arrayBuffer();
        sheets.push(performance.now() - t1);
        await read;
        reads.push(performance.now() - t0);
        for (let i = 0; i < RENDERS; i++) {
          shells.push(await openShell(browser, ui.url));
          const page = await openFlow(browser, ui.url, flowId);
          renders.push(page.ms);
          wholes.push(page.allMs);
          elements.push(page.elements);
        }
      } finally {
        await ui.stop();
      }
    }
  } finally {
    await browser.close();
    rmSync(home, { recursive: true, force: true });
  }
  process.stderr.write(
    `ui-big: load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] ?? 0).toFixed(1)} after\n`,
  );
  const row = (
    metric: string,
    value: number,
    target: number | null = null,
    baseline: number | null = null,
  ): Row => ({
    metric,
    median: value,
    baseline,
    ratio: baseline === null ? null : value / baseline,
    target,
  });
  return [
    row(
      "ui 10,000-step flow: ms to the page in Chromium (address opened → current step drawn)",
      median(renders),
      1_000,
      median(shells),
    ),
    row("ui 10,000-step flow: ms to the whole page in Chromium (audit trail and spec too)", median(wholes)),
    row(
      "ui 10,000-step flow: ms to the page on a fresh server (its first read inside)",
      median(colds),
      1_000,
      median(shells),
    ),
    row("ui 10,000-step flow: elements on the page", median(elements), 5_000),
    row("ui 10,000-step flow: ms of the server's first answer (unchecked, worker thread)", median(firsts)),
    row("ui 10,000-step flow: ms of the server's first read (to the checked page)", median(reads)),
    row("ui 10,000-step flow: ms to app.css during that read", median(sheets)),
  ];
}

/**
 * Opens `url` at the flow in a new page: the ms from the address opened to the current step drawn
 * and to the whole page drawn, and the page's element count.
 */
async function openFlow(
  browser: Browser,
  url: string,
  flowId: string,
): Promise<{ readonly ms: number; readonly allMs: number; readonly elements: number }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    const t0 = performance.now();
    await page.goto(`${url}#/flow/${flowId}`);
    await page
      .locator('#steps li[data-step-id="approve"][data-state="awaiting_gate"]')
      .waitFor({ timeout: 120_000 });
    const ms = performance.now() - t0;
    // The rest of the page (the audit trail and the spec, drawn after the first frame).
    await page.locator("#audit li").first().waitFor({ timeout: 120_000 });
    await page.locator("#spec .line.current").waitFor({ timeout: 120_000 });
    const allMs = performance.now() - t0;
    const elements = await page.evaluate(
      () =>
        (
          globalThis as unknown as {
            document: { getElementsByTagName(t: string): { length: number } };
          }
        ).document.getElementsByTagName("*").length,
    );
    return { ms, allMs, elements };
  } finally {
    await page.close();
  }
}

/**
 * The baseline: the same address at a route that shows no flow (the session traded, "Page not
 * found" drawn): what Chromium and the page's start cost on this machine now, without the flow.
 */
async function openShell(browser: Browser, url: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    const t0 = performance.now();
    await page.goto(`${url}#/no-such-view`);
    await page.locator("h1", { hasText: "Page not found" }).waitFor({ timeout: 120_000 });
    return performance.now() - t0;
  } finally {
    await page.close();
  }
}
