// Delivers notifications to the webhooks (docs/guides/ui-notify.md), off everything else's path:
// `send` only queues, and each webhook has its own queue and its own loop, so a receiver that is
// slow or down delays neither the page's server, nor a flow, nor the other receivers. Every
// request has a timeout; a network error, a timeout, 408, 429 and 5xx are tried again after a
// backoff (Retry-After obeyed, capped), anything else is final. After the last attempt, or on a
// final answer, a warning names the gate and the webhook by its host only (targets.ts). A queue
// holds at most `queueMax` notifications; past that the oldest is dropped, with a warning.
import { type BackoffPolicy, backoffDelay, DEFAULT_BACKOFF, retryAfterMs } from "./backoff";
import type { GateNotification } from "./message";
import type { NotifyTarget } from "./targets";

export interface SenderOptions {
  /** How many times one notification is posted at most (the first try included). */
  readonly attempts: number;
  readonly backoff?: BackoffPolicy;
  /** How long one request may take, connection included (ms). */
  readonly timeoutMs?: number;
  readonly queueMax?: number;
  readonly warn: (message: string) => void;
  /** In [0, 1): the jitter's source (tests fix it). */
  readonly random?: () => number;
  /** Told of each delivery that ended, delivered or not (tests wait on it). */
  readonly settled?: (delivered: boolean) => void;
}

export const DEFAULT_ATTEMPTS = 5;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_QUEUE_MAX = 100;

type Outcome =
  | { readonly kind: "delivered" }
  | { readonly kind: "retry"; readonly why: string; readonly afterMs: number | null }
  | { readonly kind: "final"; readonly why: string };

class TargetQueue {
  private readonly queue: GateNotification[] = [];
  private running = false;
  private closed = false;
  private wake: (() => void) | null = null;
  /** Aborts the request in flight when the server stops: it does not wait for a slow receiver. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly target: NotifyTarget,
    private readonly options: SenderOptions,
  ) {}

  push(notification: GateNotification): void {
    if (this.closed) return;
    const max = this.options.queueMax ?? DEFAULT_QUEUE_MAX;
    if (this.queue.length >= max) {
      const dropped = this.queue.shift();
      if (dropped !== undefined) {
        this.options.warn(
          `${max} notifications wait for ${this.target.shown}: the oldest (${describe(dropped)}) is dropped`,
        );
        this.options.settled?.(false);
      }
    }
    this.queue.push(notification);
    if (!this.running) void this.run();
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.stopping.abort();
    this.wake?.();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      for (let next = this.queue.shift(); next !== undefined && !this.closed; next = this.queue.shift()) {
        const delivered = await this.deliver(next);
        this.options.settled?.(delivered);
      }
    } finally {
      this.running = false;
    }
  }

  private async deliver(notification: GateNotification): Promise<boolean> {
    const policy = this.options.backoff ?? DEFAULT_BACKOFF;
    const body = JSON.stringify(notification);
    let last = "";
    for (let attempt = 0; attempt < this.options.attempts && !this.closed; attempt++) {
      const outcome = await this.post(body, policy);
      if (outcome.kind === "delivered") return true;
      last = outcome.why;
      if (outcome.kind === "final") {
        this.options.warn(
          `the notification of ${describe(notification)} to ${this.target.shown} was refused (${last}); not sent`,
        );
        return false;
      }
      if (attempt + 1 < this.options.attempts) {
        const random = (this.options.random ?? Math.random)();
        await this.sleep(outcome.afterMs ?? backoffDelay(policy, attempt, random));
      }
    }
    if (!this.closed) {
      this.options.warn(
        `the notification of ${describe(notification)} to ${this.target.shown} failed ${this.options.attempts} time(s) (last: ${last}); giving up`,
      );
    }
    return false;
  }

  private async post(body: string, policy: BackoffPolicy): Promise<Outcome> {
    let response: Response;
    try {
      response = await fetch(this.target.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "User-Agent": "stratumc-ui" },
        body,
        redirect: "manual",
        signal: AbortSignal.any([
          AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
          this.stopping.signal,
        ]),
      });
    } catch (e) {
      return { kind: "retry", why: networkReason(e), afterMs: null };
    }
    // The status says all; the body is not read (a receiver could send one without end).
    await response.body?.cancel().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { kind: "delivered" };
    const why = `HTTP ${response.status}`;
    if (response.status === 408 || response.status === 429 || response.status >= 500) {
      return {
        kind: "retry",
        why,
        afterMs: retryAfterMs(response.headers.get("retry-after"), policy, Date.now()),
      };
    }
    return { kind: "final", why };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }
}

/** Why a request failed, without the address (an error's message may quote it). */
function networkReason(e: unknown): string {
  if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError"))
    return "no answer in time";
  const cause = e instanceof Error ? (e.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === "string" ? cause.code : "network error";
}

function describe(n: GateNotification): string {
  return `gate ${JSON.stringify(n.step_id)} of flow ${n.flow_id}`;
}

/** One queue per webhook; `send` returns at once. */
export class NotificationSender {
  private readonly queues: TargetQueue[];

  constructor(targets: readonly NotifyTarget[], options: SenderOptions) {
    this.queues = targets.map((t) => new TargetQueue(t, options));
  }

  send(notification: GateNotification): void {
    for (const queue of this.queues) queue.push(notification);
  }

  close(): void {
    for (const queue of this.queues) queue.close();
  }
}
