// Debounced, superseding diagnostics. Every change (re)starts a per-document timer; when it fires,
// the document is checked and its diagnostics published only if the version the timer was started
// for is still the document's current version. A newer change cancels the pending check of the
// older version, so an outdated version is never checked for diagnostics and never published.
// (checkSpec itself is synchronous: a check that has started runs to its end, ~ms for large specs,
// and its result is dropped when the document moved on meanwhile. A huge document's check runs in
// a worker, off-thread-document.ts, which publishes only if the version is still current then.)

/** The timer functions (injected: tests drive them by hand, no timed assertions). */
export interface Timers {
  set(run: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

const nodeTimers: Timers = {
  set: (run, delayMs) => setTimeout(run, delayMs),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Default debounce: long enough to coalesce a burst of keystrokes, short enough to feel immediate. */
export const DEFAULT_DEBOUNCE_MS = 100;

export interface SchedulerHooks {
  /** The document's current version, or undefined when it is closed. */
  currentVersion(uri: string): number | undefined;
  /** Check the current version and publish its diagnostics (called only for a current version). */
  publish(uri: string, version: number): void;
}

export class DiagnosticScheduler {
  private readonly pending = new Map<string, { version: number; handle: unknown }>();

  constructor(
    private readonly hooks: SchedulerHooks,
    private readonly delayMs: number = DEFAULT_DEBOUNCE_MS,
    private readonly timers: Timers = nodeTimers,
  ) {}

  /** A new version of `uri`: supersede any pending check and start the debounce anew. */
  schedule(uri: string, version: number): void {
    this.cancel(uri);
    const handle = this.timers.set(() => this.fire(uri, version), this.delayMs);
    this.pending.set(uri, { version, handle });
  }

  cancel(uri: string): void {
    const p = this.pending.get(uri);
    if (p === undefined) return;
    this.timers.clear(p.handle);
    this.pending.delete(uri);
  }

  /** Versions waiting for their timer, by document (for tests and shutdown). */
  pendingVersions(): ReadonlyMap<string, number> {
    return new Map([...this.pending].map(([uri, p]) => [uri, p.version]));
  }

  dispose(): void {
    for (const uri of [...this.pending.keys()]) this.cancel(uri);
  }

  private fire(uri: string, version: number): void {
    const p = this.pending.get(uri);
    if (p === undefined || p.version !== version) return; // superseded (a cleared timer that ran anyway)
    this.pending.delete(uri);
    if (this.hooks.currentVersion(uri) !== version) return;
    this.hooks.publish(uri, version);
  }
}
