// Live updates for `stratumc ui`: while at least one page listens, the store is polled (its
// listing: one directory read and two stats per flow) and listeners hear of every change. Polling
// rather than fs.watch: it sees commits by any process, on any file system, the same way; a
// quarter of a second keeps pages within the one second the issue asks for.

export class StoreWatch {
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;
  private last: string | null = null;
  private polling = false;

  constructor(
    private readonly signature: () => Promise<string>,
    private readonly intervalMs: number,
    private readonly logError: (message: string) => void,
  ) {}

  /** Calls `listener` after every change from now on; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (this.timer === null) {
      this.last = null;
      void this.poll();
      this.timer = setInterval(() => void this.poll(), this.intervalMs);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private async poll(): Promise<void> {
    if (this.polling) return; // a slow listing is not overtaken by the next tick
    this.polling = true;
    try {
      const now = await this.signature();
      const changed = this.last !== null && now !== this.last;
      this.last = now;
      if (changed) for (const listener of this.listeners) listener();
    } catch (e) {
      this.logError(`watching the flow store: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.polling = false;
    }
  }
}
