// What a store remembers of the flows it last read or wrote (sizes, revision, change token), so
// that a commit decides append-or-snapshot and checks revisions without reading the flow again.
// Bounded: the least recently remembered flow is forgotten first.

/** How many flows a store remembers (a few hundred bytes each). */
export const MAX_RECENT_FLOWS = 4096;

export class RecentFlows<T> {
  /** Flow id → what was seen, least recently remembered first. */
  private readonly seen = new Map<string, T>();

  constructor(readonly limit: number = MAX_RECENT_FLOWS) {}

  get size(): number {
    return this.seen.size;
  }

  get(flowId: string): T | undefined {
    return this.seen.get(flowId);
  }

  has(flowId: string): boolean {
    return this.seen.has(flowId);
  }

  /** Remembers the flow as the most recent; forgets the least recent beyond the limit. */
  remember(flowId: string, value: T): void {
    this.seen.delete(flowId);
    this.seen.set(flowId, value);
    while (this.seen.size > this.limit) this.seen.delete(this.seen.keys().next().value as string);
  }

  forget(flowId: string): void {
    this.seen.delete(flowId);
  }

  clear(): void {
    this.seen.clear();
  }
}
