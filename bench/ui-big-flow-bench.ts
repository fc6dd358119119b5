// `stratumc ui` on a flow of 10,000 steps (docs/guides/ui.md "Big flows"): the built server's first read
// of the flow (decoding the file and checking its spec, in the server's worker thread), the style
// sheet asked for during that read, and the time from opening the printed address at the flow in
// Debian's Chromium to its steps drawn, with the page's element count. A fresh server per run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBigFlow } from "../test/hostile/ui-support";
import { launchChromium } from "../test/ui/chromium";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";
import { startUi } from "./lib/ui-server";

const RUNS = 3;
const RENDERS = 5;
const STEPS = 10_000;

export async function benchUiBigFlow(repoDir: string): Promise<Row[]> {
  const home = mkdtempSync(join(tmpdir(), "stratumc-ui-big-bench-"));
  const browser = await launchChromium();
  const reads: number[] = [];
  const sheets: number[] = [];
  const renders: number[] = [];
  const elements: number[] = [];
  try {
    const flowId = writeBigFlow(home, STEPS);
    for (let run = 0; run < RUNS; run++) {
      const ui = await startUi(repoDir, home);
      try {
        const auth = { Authorization: `Bearer ${ui.token}` };
        const t0 = performance.now();
        const read = fetch(`${ui.origin}/api/flows/${flowId}`, { headers: auth }).then((r) =>
          r.arrayBuffer(),
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
        const t1 = performance.now();
        await (await fetch(`${ui.origin}/app.css`)).arrayBuffer();
        sheets.push(performance.now() - t1);
        await read;
        reads.push(performance.now() - t0);
        for (let i = 0; i < RENDERS; i++) {
          const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
          const t2 = performance.now();
          await page.goto(`${ui.url}#/flow/${flowId}`);
          await page.locator('#steps li[data-step-id="approve"]').waitFor();
          renders.push(performance.now() - t2);
          elements.push(
            await page.evaluate(
              () =>
                (
                  globalThis as unknown as {
                    document: { getElementsByTagName(t: string): { length: number } };
                  }
                ).document.getElementsByTagName("*").length,
            ),
          );
          await page.close();
        }
      } finally {
        await ui.stop();
      }
    }
  } finally {
    await browser.close();
    rmSync(home, { recursive: true, force: true });
  }
  const row = (metric: string, value: number, target: number | null = null): Row => ({
    metric,
    median: value,
    baseline: null,
    ratio: null,
    target,
  });
  return [
    row(
      "ui 10,000-step flow: ms to the page in Chromium (address opened → steps drawn)",
      median(renders),
      3_000,
    ),
    row("ui 10,000-step flow: elements on the page", median(elements), 5_000),
    row("ui 10,000-step flow: ms of the server's first read (worker thread)", median(reads)),
    row("ui 10,000-step flow: ms to app.css during that read", median(sheets)),
  ];
}
