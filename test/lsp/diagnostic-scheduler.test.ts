// Debouncing and superseding of diagnostics, driven by hand-run timers (no timed assertions).
import { describe, expect, it } from "vitest";
import { DiagnosticScheduler, type Timers } from "../../lsp/diagnostic-scheduler";

class ManualTimers implements Timers {
  private next = 0;
  readonly queued = new Map<number, { run: () => void; delayMs: number }>();
  set(run: () => void, delayMs: number): unknown {
    const id = this.next++;
    this.queued.set(id, { run, delayMs });
    return id;
  }
  clear(handle: unknown): void {
    this.queued.delete(handle as number);
  }
  runAll(): void {
    const due = [...this.queued.values()];
    this.queued.clear();
    for (const t of due) t.run();
  }
}

function setup(delayMs = 80) {
  const versions = new Map<string, number>();
  const published: [string, number][] = [];
  const timers = new ManualTimers();
  const scheduler = new DiagnosticScheduler(
    { currentVersion: (uri) => versions.get(uri), publish: (uri, v) => published.push([uri, v]) },
    delayMs,
    timers,
  );
  const edit = (uri: string, version: number) => {
    versions.set(uri, version);
    scheduler.schedule(uri, version);
  };
  return { versions, published, timers, scheduler, edit };
}

describe("DiagnosticScheduler", () => {
  it("waits for the debounce and publishes only the newest of a burst of versions", () => {
    const s = setup();
    s.edit("a", 1);
    s.edit("a", 2);
    s.edit("a", 3);
    expect(s.published).toEqual([]);
    expect([...s.timers.queued.values()].map((t) => t.delayMs)).toEqual([80]);
    expect(s.scheduler.pendingVersions()).toEqual(new Map([["a", 3]]));
    s.timers.runAll();
    expect(s.published).toEqual([["a", 3]]);
    expect(s.scheduler.pendingVersions().size).toBe(0);
  });

  it("keeps documents independent", () => {
    const s = setup();
    s.edit("a", 1);
    s.edit("b", 7);
    s.timers.runAll();
    expect(s.published).toEqual([
      ["a", 1],
      ["b", 7],
    ]);
  });

  it("never publishes a version that is no longer the document's (closed or changed without a schedule)", () => {
    const s = setup();
    s.edit("a", 1);
    s.versions.set("a", 2); // a newer version arrived whose own schedule is still to come
    s.edit("b", 1);
    s.versions.delete("b"); // closed
    s.timers.runAll();
    expect(s.published).toEqual([]);
  });

  it("drops the pending check of a cancelled document and of a disposed scheduler", () => {
    const s = setup();
    s.edit("a", 1);
    s.scheduler.cancel("a");
    s.edit("b", 1);
    s.scheduler.dispose();
    expect(s.timers.queued.size).toBe(0);
    s.timers.runAll();
    expect(s.published).toEqual([]);
  });
});
