// Which gates `stratumc ui --notify` announces (docs/guides/ui-notify.md). After every change in the
// flow store (the same watch that keeps the page live: the folder's events, or PostgreSQL's
// LISTEN/NOTIFY) the flows list is read again; a flow waiting at a gate it was not waiting at in
// the previous reading — another gate, or the same one in another round — starts a waiting period,
// announced once. The first reading only learns what already waits: a restarted server does not
// announce again the gates it (or a server before it) announced; a gate that started waiting while
// no server watched is not announced, the page's list shows it.
import type { FlowList } from "../api-types";
import { gateNotification } from "./message";

export interface GateNotifierOptions {
  /** The flows as the page lists them. */
  readonly list: () => Promise<FlowList>;
  /** Calls the listener after changes in the store; returns the function that stops it. */
  readonly subscribe: (listener: () => void) => () => void;
  readonly send: (notification: ReturnType<typeof gateNotification>) => void;
  readonly publicUrl: URL;
  readonly logError: (message: string) => void;
}

interface Waiting {
  readonly stepId: string;
  readonly round: number;
}

export class GateNotifier {
  /** Flow id → the gate it waits at, as last read; null before the first reading. */
  private waiting: Map<string, Waiting> | null = null;
  private scanning = false;
  private again = false;
  private unsubscribe: (() => void) | null = null;
  private lastFailure = "";

  constructor(private readonly options: GateNotifierOptions) {}

  /** Reads what waits now (announcing nothing), then watches. Resolves after that first reading. */
  async start(): Promise<void> {
    this.unsubscribe = this.options.subscribe(() => void this.scan());
    await this.scan();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** One reading; a change during it causes one more. */
  async scan(): Promise<void> {
    if (this.scanning) {
      this.again = true;
      return;
    }
    this.scanning = true;
    try {
      do {
        this.again = false;
        await this.readOnce();
      } while (this.again && this.unsubscribe !== null);
    } finally {
      this.scanning = false;
    }
  }

  private async readOnce(): Promise<void> {
    let list: FlowList;
    try {
      list = await this.options.list();
    } catch (e) {
      // A store that is down: said once per distinct reason, tried again on the next change.
      const reason = e instanceof Error ? e.message : String(e);
      if (reason !== this.lastFailure)
        this.options.logError(`notifications: cannot read the flows (${reason})`);
      this.lastFailure = reason;
      return;
    }
    this.lastFailure = "";
    const first = this.waiting === null;
    const before = this.waiting ?? new Map<string, Waiting>();
    const now = new Map<string, Waiting>();
    for (const flow of list.flows) {
      const gate = flow.gate;
      if (flow.status !== "awaiting_gate" || gate === null) continue;
      const seen = before.get(flow.flow_id);
      const current: Waiting = { stepId: gate.step_id, round: flow.round };
      now.set(flow.flow_id, current);
      if (first || (seen !== undefined && seen.stepId === current.stepId && seen.round === current.round))
        continue;
      this.options.send(gateNotification({ flow, gate, sinceMs: flow.updated_ms }, this.options.publicUrl));
    }
    this.waiting = now;
  }
}
