// `stratumc ui`'s inbox over a store of 10,000 flows, each waiting at its gate (docs/guides/ui-inbox.md):
// the built server's first `GET /api/inbox` (every flow read, in the server's worker thread), the
// next ones (rows kept while the flows do not change), the size of one answer (50 items a list),
// and the time from opening the printed address in Debian's Chromium to the waiting gates drawn.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBigFlow } from "../test/hostile/ui-support";
import { launchChromium } from "../test/ui/chromium";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";
import { startUi } from "./lib/ui-server";

const FLOWS = 10_000;
const WARM = 9;
const RENDERS = 5;

export async function benchUiInbox(repoDir: string): Promise<Row[]> {
  const home = mkdtempSync(join(tmpdir(), "stratumc-ui-inbox-bench-"));
  const browser = await launchChromium();
  const warm: number[] = [];
  const renders: number[] = [];
  let first = 0;
  let bytes = 0;
  try {
    for (let i = 0; i < FLOWS; i++) writeBigFlow(home, 2);
    const ui = await startUi(repoDir, home);
    try {
      const ask = async (): Promise<number> => {
        const t0 = performance.now();
        const body = await (
          await fetch(`${ui.origin}/api/inbox`, { headers: { Authorization: `Bearer ${ui.token}` } })
        ).arrayBuffer();
        bytes = body.byteLength;
        return performance.now() - t0;
      };
      first = await ask();
      for (let i = 0; i < WARM; i++) warm.push(await ask());
      for (let i = 0; i < RENDERS; i++) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const t1 = performance.now();
        await page.goto(ui.url);
        await page.locator("#waiting-list li").first().waitFor();
        renders.push(performance.now() - t1);
        await page.close();
      }
    } finally {
      await ui.stop();
    }
  } finally {
    await browser.close();
    rmSync(home, { recursive: true, force: true });
  }
  const row = (metric: string, value: number): Row => ({
    metric,
    median: value,
    baseline: null,
    ratio: null,
    target: null,
  });
  return [
    row("ui inbox of 10,000 flows: ms of the server's first answer (every flow read)", first),
    row("ui inbox of 10,000 flows: ms of a later answer (rows kept)", median(warm)),
    row("ui inbox of 10,000 flows: KB of one answer (50 items a list)", bytes / 1024),
    row(
      "ui inbox of 10,000 flows: ms to the page in Chromium (address opened → gates drawn)",
      median(renders),
    ),
  ];
}
