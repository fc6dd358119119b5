// The events the exporter could not keep (its queue was full): counted, never a line each. The
// first drop of an episode prints one warning; the count is reported when an export succeeds
// again (the episode ends) or at shutdown, whichever comes first. At shutdown, the events still
// queued after the wait are counted apart (they were not dropped for want of room).

export class DropCounter {
  private count = 0;
  private dropping = false;

  constructor(private readonly warn: (line: string) => void) {}

  /** `n` events were dropped; `why` is said once per episode. */
  drop(n: number, why: () => string): void {
    if (n <= 0) return;
    this.count += n;
    if (this.dropping) return;
    this.dropping = true;
    this.warn(`traces: ${why()}; newer events are dropped until an export succeeds, and counted`);
  }

  /** An export succeeded: the count so far, in one line. */
  report(): void {
    if (this.count > 0) this.warn(`traces: ${this.count} events were dropped: the export queue was full`);
    this.count = 0;
    this.dropping = false;
  }

  /** The exporter stops with `queued` events not sent: both counts, a line each. */
  shutdown(queued: number): void {
    this.report();
    if (queued > 0) this.warn(`traces: ${queued} events were not sent before shutdown`);
  }
}
