// How `stratumc ui` notices changes in the flow store (ui/store-watch.ts): a burst of changes
// reaches listeners as few notifications, the last change always included, and the listing is
// polled without a folder to watch — both on fake timers, to the millisecond; and, on the real
// file system, a write in the watched folder is heard without reading the listing, the folder is
// watched once it appears, and nothing is heard after the last listener left.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StoreWatch } from "../../ui/store-watch";

let root: string;
let watches: StoreWatch[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "stratumc-store-watch-"));
  watches = [];
});
afterEach(() => {
  vi.useRealTimers();
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
  it("a burst of changes is told at once and once more at the end of the interval, never more often", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    let tell: () => void = () => undefined;
    const w = new StoreWatch({
      feed: (listener) => {
        tell = listener;
        return () => undefined;
      },
      dir: null,
      signature: async () => "never read",
      intervalMs: 200,
      logError: () => undefined,
    });
    watches.push(w);
    let heard = 0;
    w.subscribe(() => heard++);
    for (let i = 0; i < 30; i++) tell();
    await vi.advanceTimersByTimeAsync(0);
    expect(heard).toBe(1); // the first change of a quiet store is told at once
    for (let t = 10; t <= 100; t += 10) {
      await vi.advanceTimersByTimeAsync(10);
      tell();
    }
    await vi.advanceTimersByTimeAsync(99); // 199 ms after the first notification
    expect(heard).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(heard).toBe(2); // the rest of the burst, the last change included, at 200 ms
    await vi.advanceTimersByTimeAsync(10 * 200);
    expect(heard).toBe(2); // nothing changed since
    await vi.advanceTimersByTimeAsync(50);
    tell(); // 250 ms after the last notification: told at once
    await vi.advanceTimersByTimeAsync(0);
    expect(heard).toBe(3);
  });

  it("watches the folder: a write there is heard, and the listing is never read", async () => {
    const dir = join(root, "flows");
    mkdirSync(dir);
    let polled = 0;
    const w = watchOf(dir, async () => `${++polled}`, 50);
    let heard = 0;
    w.subscribe(() => heard++);
    writeFileSync(join(dir, "f.journal"), "x");
    await until(() => heard, 1);
    writeFileSync(join(dir, "late.json"), "x");
    await until(() => heard, 2); // the last write is always told
    expect(polled).toBe(0);
  });

  it("polls the listing when there is no folder to watch, and tells only of changes", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    let version = 0;
    let polled = 0;
    const w = watchOf(
      null,
      async () => {
        polled++;
        return `v${version}`;
      },
      30,
    );
    let heard = 0;
    w.subscribe(() => heard++);
    await vi.advanceTimersByTimeAsync(5 * 30);
    expect(polled).toBe(6); // at once, then every 30 ms
    expect(heard).toBe(0);
    version = 1;
    await vi.advanceTimersByTimeAsync(29);
    expect(heard).toBe(0);
    // The next poll sees the change; its notification, due at once, is scheduled inside the
    // timer's tick, where fake timers count a 0 ms delay as 1 ms.
    await vi.advanceTimersByTimeAsync(2);
    expect(heard).toBe(1);
    await vi.advanceTimersByTimeAsync(10 * 30);
    expect(heard).toBe(1);
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
