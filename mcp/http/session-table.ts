// The sessions of the HTTP server (one MCP Server and transport each, keyed by their
// Mcp-Session-Id), closing the idle ones: the server (serve-http.ts) opens at most its limit, and a session that has had no request for `idleMs` is
// closed (a request in progress or an open event stream keeps it). A client whose session was
// closed gets 404 for its id and starts a new one, as the protocol says.

export interface TableSession {
  /** Closes the session's server and transport (its open streams end). */
  close(): Promise<void>;
}

interface Entry<S extends TableSession> {
  readonly session: S;
  lastSeen: number;
  open: number;
}

export class SessionTable<S extends TableSession> {
  private readonly entries = new Map<string, Entry<S>>();

  constructor(
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  add(id: string, session: S): void {
    this.entries.set(id, { session, lastSeen: this.now(), open: 0 });
  }

  get(id: string): S | undefined {
    return this.entries.get(id)?.session;
  }

  /** A request of the session starts; the returned function ends it. */
  begin(id: string): () => void {
    const entry = this.entries.get(id);
    if (entry === undefined) return () => {};
    entry.open += 1;
    entry.lastSeen = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.open -= 1;
      entry.lastSeen = this.now();
    };
  }

  /** The open sessions. */
  all(): S[] {
    return [...this.entries.values()].map((e) => e.session);
  }

  remove(id: string): void {
    this.entries.delete(id);
  }

  /** Closes the sessions idle for longer than the limit; resolves to how many. */
  async expire(): Promise<number> {
    const now = this.now();
    const idle = [...this.entries].filter(([, e]) => e.open === 0 && now - e.lastSeen > this.idleMs);
    for (const [id] of idle) this.entries.delete(id);
    await Promise.all(idle.map(([, e]) => e.session.close()));
    return idle.length;
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.session.close()));
  }
}
