// How `stratumc ui` notices changes in the flow store (ui/store-watch.ts): by watching the
// store's folder, a burst of writes reaches listeners as few notifications, the last write always
// included; without a folder to watch, by polling the listing; and once the folder appears, by
// watching it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoreWatch } from "../../ui/store-watch";

let root: string;
let watches: StoreWatch[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "stratumc-store-watch-"));
  watches = [];
});
afterEach(() => {
  for (const w of watches) w.stop();
  rmSync(root, { recursive: true, force: true });
});

function watchOf(dir: string | null, signature: () => Promise<string>, intervalMs = 100): StoreWatch {
  const errors: string[] = [];
  const w = new StoreWatch({ dir, signature, intervalMs, logError: (m) => errors.push(m) });
  watches.push(w);
  return w;
}

/** Resolves once `count()` reached `n`, or rejects after `ms`. */
async function until(count: () => number, n: number, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (count() < n) {
    if (Date.now() > end) throw new Error(`only ${count()} of ${n} notifications`);
    await sleep(10);
  }
}

describe("StoreWatch", () => {
  it("watches the folder: a burst of writes is a few notifications, and the last one always comes", async () => {
    const dir = join(root, "flows");
    mkdirSync(dir);
    let polled = 0;
    const w = watchOf(dir, async () => `${++polled}`, 200);
    let heard = 0;
    w.subscribe(() => heard++);
    const start = Date.now();
    for (let i = 0; i < 30; i++) writeFileSync(join(dir, `f${i}.journal`), "x");
    await until(() => heard, 1);
    await sleep(500);
    // At most one notification per 200 ms interval since the burst began (a loaded machine
    // stretches the burst), and far fewer than the 30 writes.
    const intervals = Math.ceil((Date.now() - start) / 200);
    expect(heard).toBeGreaterThanOrEqual(1);
    expect(heard).toBeLessThanOrEqual(Math.min(intervals + 1, 10));
    expect(polled).toBe(0); // watched: the listing is never read
    const before = heard;
    writeFileSync(join(dir, "late.json"), "x");
    await until(() => heard, before + 1);
  });

  it("polls the listing when there is no folder to watch, and tells only of changes", async () => {
    let version = 0;
    const w = watchOf(null, async () => `v${version}`, 30);
    let heard = 0;
    w.subscribe(() => heard++);
    await sleep(150);
    expect(heard).toBe(0);
    version = 1;
    await until(() => heard, 1);
  });

  it("watches the folder once it appears (the first flow)", async () => {
    const dir = join(root, "flows");
    let polled = 0;
    const w = watchOf(
      dir,
      async () => {
        polled++;
        return String(polled > 2);
      },
      30,
    );
    let heard = 0;
    w.subscribe(() => heard++);
    await sleep(60);
    mkdirSync(dir);
    await until(() => heard, 1); // the listing moved
    await sleep(100);
    const pollsWhenWatching = polled;
    writeFileSync(join(dir, "a.json"), "x");
    await until(() => heard, 2);
    await sleep(100);
    expect(polled).toBe(pollsWhenWatching); // no more polling
  });

  it("stops watching when the last listener leaves", async () => {
    const dir = join(root, "flows");
    mkdirSync(dir);
    const w = watchOf(dir, async () => "same", 30);
    let heard = 0;
    const stop = w.subscribe(() => heard++);
    stop();
    writeFileSync(join(dir, "a.json"), "x");
    await sleep(150);
    expect(heard).toBe(0);
  });
});
