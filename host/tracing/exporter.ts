// Batches finished spans and sends them without ever making a tool call wait (docs/guides/tracing.md,
// "Export"): `add` only queues; a timer (unref'd), or a full batch on the next turn of the event
// loop, encodes and starts a POST in the background.
// Nothing grows without bound, however the collector behaves: at most MAX_IN_FLIGHT requests are
// open (each ends by its deadline, http-post.ts), batches wait in the queue for a free one, and
// events over the queue's size are dropped and counted (drops.ts). A failing collector costs one
// warning line for the whole session (and one more when it comes back and fails again after a
// success), and `shutdown` sends what is left, waiting at most a bound.
import { redactUrl } from "../redact";
import type { TraceConfig } from "./config";
import { DropCounter } from "./drops";
import type { Post } from "./http-post";
import { encodeTracesJson } from "./otlp-json";
import { encodeTracesProto } from "./otlp-proto";
import type { Resource, Span } from "./span";

/**
 * Export requests open at once. A collector that answers keeps one or two busy; one that stalls
 * holds these until their deadline, and never more sockets than these.
 */
export const MAX_IN_FLIGHT = 4;

interface InFlight {
  readonly done: Promise<unknown>;
  abort(): void;
}

/**
 * `T` is what the observer hands over (the engine's events): they are turned into spans only when
 * a batch is sent, so a tool call pays for nothing but the queueing.
 */
export class SpanExporter<T> {
  private queue: T[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private immediate: ReturnType<typeof setImmediate> | null = null;
  private readonly inFlight = new Set<InFlight>();
  /** A flush left batches queued because every request slot was taken. */
  private waiting = false;
  private stopped = false;
  private failing = false;
  private readonly drops: DropCounter;
  private readonly url: string;

  constructor(
    private readonly config: TraceConfig,
    private readonly resource: Resource,
    private readonly toSpan: (item: T) => Span | null,
    private readonly post: Post,
    private readonly warn: (line: string) => void,
  ) {
    this.drops = new DropCounter(warn);
    this.url = redactUrl(config.url);
  }

  add(items: readonly T[]): void {
    if (this.stopped) return;
    const room = Math.max(0, this.config.maxQueueSize - this.queue.length);
    for (let i = 0; i < items.length && i < room; i++) this.queue.push(items[i] as T);
    if (items.length > room) this.drops.drop(items.length - room, () => this.why());
    if (this.queue.length === 0 || this.immediate !== null || this.waiting) return;
    // A full batch goes out right after the current call has answered, never inside it.
    if (this.queue.length >= this.config.maxExportBatchSize) {
      this.immediate = setImmediate(() => this.flush());
      this.immediate.unref();
    } else if (this.timer === null) {
      this.timer = setTimeout(() => this.flush(), this.config.scheduleDelayMs);
      this.timer.unref();
    }
  }

  /** Starts sending what is queued, in batches, as far as request slots are free; returns at once. */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.immediate !== null) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    while (this.queue.length > 0 && this.inFlight.size < MAX_IN_FLIGHT && !this.stopped) {
      this.send(this.queue.splice(0, this.config.maxExportBatchSize));
    }
    this.waiting = this.queue.length > 0 && !this.stopped;
  }

  /**
   * Sends what is queued and waits for the requests, at most `waitMs` in all; then aborts them,
   * drops what is still queued and reports what was dropped.
   */
  async shutdown(waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    this.flush();
    while (this.inFlight.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const bound = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, left);
      });
      await Promise.race([Promise.race([...this.inFlight].map((r) => r.done)), bound]);
      clearTimeout(timer);
    }
    this.stopped = true;
    this.waiting = false;
    for (const request of this.inFlight) request.abort();
    this.drops.shutdown(this.queue.length);
    this.queue = [];
  }

  private why(): string {
    const open = this.inFlight.size;
    return `the export queue is full (${this.config.maxQueueSize} events; ${open} export${open === 1 ? "" : "s"} to ${this.url} open)`;
  }

  private send(items: T[]): void {
    const json = this.config.protocol === "http/json";
    let body: Uint8Array;
    const spans: Span[] = [];
    try {
      for (const item of items) {
        const span = this.toSpan(item);
        if (span !== null) spans.push(span);
      }
      if (spans.length === 0) return;
      body = json
        ? Buffer.from(encodeTracesJson(this.resource, spans), "utf8")
        : encodeTracesProto(this.resource, spans);
    } catch (e) {
      this.warn(`traces: cannot encode ${spans.length} spans: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const request = this.post({
      url: this.config.url,
      headers: this.config.headers,
      contentType: json ? "application/json" : "application/x-protobuf",
      body,
      timeoutMs: this.config.timeoutMs,
    });
    this.inFlight.add(request);
    void request.done.then((problem) => {
      this.inFlight.delete(request);
      if (problem === null) {
        this.failing = false;
        this.drops.report();
      } else if (!this.failing) {
        this.failing = true;
        this.warn(`traces: cannot export to ${this.url} (${problem}); spans are dropped until it answers`);
      }
      // Batches that waited for a free request go now.
      if (this.waiting) this.flush();
    });
  }
}
