// Batches finished spans and sends them without ever making a tool call wait (docs/tracing.md,
// "Export"): `add` only queues; a timer (unref'd), or a full batch on the next turn of the event
// loop, encodes and starts a POST in the background.
// A failing collector costs one warning line for the whole session (and one more when it comes
// back and fails again after a success), spans over the queue limit are dropped, and `shutdown`
// sends what is left, waiting at most a bound.
import type { TraceConfig } from "./config";
import type { Post } from "./http-post";
import { encodeTracesJson } from "./otlp-json";
import { encodeTracesProto } from "./otlp-proto";
import type { Resource, Span } from "./span";

/** Events per request, and events held at most (the rest are dropped and counted). */
export const MAX_BATCH = 512;
export const MAX_QUEUE = 2048;

/**
 * `T` is what the observer hands over (the engine's events): they are turned into spans only when
 * a batch is sent, so a tool call pays for nothing but the queueing.
 */
export class SpanExporter<T> {
  private queue: T[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private immediate: ReturnType<typeof setImmediate> | null = null;
  private readonly inFlight = new Set<{ readonly done: Promise<unknown>; abort(): void }>();
  private failing = false;
  private dropped = 0;

  constructor(
    private readonly config: TraceConfig,
    private readonly resource: Resource,
    private readonly toSpan: (item: T) => Span | null,
    private readonly post: Post,
    private readonly warn: (line: string) => void,
  ) {}

  add(items: readonly T[]): void {
    for (const item of items) {
      if (this.queue.length >= MAX_QUEUE) this.dropped++;
      else this.queue.push(item);
    }
    if (this.queue.length === 0 || this.immediate !== null) return;
    // A full batch goes out right after the current call has answered, never inside it.
    if (this.queue.length >= MAX_BATCH) {
      this.immediate = setImmediate(() => this.flush());
      this.immediate.unref();
    } else if (this.timer === null) {
      this.timer = setTimeout(() => this.flush(), this.config.scheduleDelayMs);
      this.timer.unref();
    }
  }

  /** Starts sending everything queued (in batches); returns at once. */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.immediate !== null) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    while (this.queue.length > 0) this.send(this.queue.splice(0, MAX_BATCH));
    if (this.dropped > 0) {
      this.warn(`traces: the export queue was full; ${this.dropped} events were dropped`);
      this.dropped = 0;
    }
  }

  /** Sends what is queued and waits for every request, at most `waitMs`; then gives up on them. */
  async shutdown(waitMs: number): Promise<void> {
    this.flush();
    if (this.inFlight.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([Promise.all([...this.inFlight].map((r) => r.done)), bound]);
    clearTimeout(timer);
    for (const request of this.inFlight) request.abort();
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
      } else if (!this.failing) {
        this.failing = true;
        this.warn(
          `traces: cannot export to ${this.config.url} (${problem}); spans are dropped until it answers`,
        );
      }
    });
  }
}
