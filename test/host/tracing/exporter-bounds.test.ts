// The exporter's bounds (host/tracing/exporter.ts, http-post.ts; docs/guides/tracing.md, "Export never
// gets in a call's way"): never more than MAX_IN_FLIGHT requests open, batches waiting for a free
// one rather than opening more, events over the queue dropped with one warning and counted, the
// count reported when an export succeeds again or at shutdown; and, over real sockets, a deadline
// from a request's start to its end that a collector dribbling bytes cannot stretch, and one
// keep-alive connection reused by a healthy collector.
import { createServer as createHttpServer } from "node:http";
import { createServer, type Socket } from "node:net";
import { describe, expect, it, vi } from "vitest";
import { traceConfig } from "../../../host/tracing/config";
import { MAX_IN_FLIGHT, SpanExporter } from "../../../host/tracing/exporter";
import { createHttpPost, type Post } from "../../../host/tracing/http-post";
import type { Span } from "../../../host/tracing/span";

interface Pending {
  readonly events: number;
  finish(problem: string | null): void;
}

/** A Post whose requests stay open until the test finishes them. */
function heldPost(): { post: Post; open: Pending[]; sent: number[]; maxOpen: () => number } {
  const open: Pending[] = [];
  const sent: number[] = [];
  let max = 0;
  const post: Post = (req) => {
    let resolve: (problem: string | null) => void = () => undefined;
    const done = new Promise<string | null>((r) => {
      resolve = r;
    });
    const pending: Pending = {
      events: (JSON.parse(Buffer.from(req.body).toString("utf8")) as { spans: number }).spans,
      finish: (problem) => {
        const i = open.indexOf(pending);
        if (i >= 0) open.splice(i, 1);
        resolve(problem);
      },
    };
    open.push(pending);
    sent.push(pending.events);
    max = Math.max(max, open.length);
    return { done, abort: () => pending.finish("aborted at shutdown") };
  };
  return { post, open, sent, maxOpen: () => max };
}

const span = (n: number): Span => ({
  traceId: "0".repeat(32),
  spanId: n.toString(16).padStart(16, "0"),
  parentSpanId: null,
  name: `s${n}`,
  startMs: 0,
  endMs: 1,
  attributes: [],
  status: { code: "unset", message: "" },
});

function exporter(post: Post, warnings: string[], env: Record<string, string> = {}) {
  const config = traceConfig(
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://team:pw-never-shown@collector:4318",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "600000",
      OTEL_BSP_MAX_QUEUE_SIZE: "10",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "2",
      ...env,
    },
    (line) => warnings.push(line),
  );
  if (config === null) throw new Error("tracing is off");
  // The body is a count of spans, so the test sees what each request carries.
  const counting: Post = (req) =>
    post({
      ...req,
      body: Buffer.from(
        JSON.stringify({
          spans: JSON.parse(Buffer.from(req.body).toString()).resourceSpans[0].scopeSpans[0].spans.length,
        }),
      ),
    });
  return new SpanExporter<number>(
    config,
    { attributes: [], scopeName: "t", scopeVersion: "0" },
    span,
    counting,
    (line) => warnings.push(line),
  );
}

const settle = () => new Promise((r) => setImmediate(r));

describe("requests in flight", () => {
  it("never exceed the cap: batches wait for a free request, and go when one ends", async () => {
    const held = heldPost();
    const warnings: string[] = [];
    const e = exporter(held.post, warnings);
    e.add([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    e.flush();
    expect(held.open).toHaveLength(MAX_IN_FLIGHT);
    held.open[0]?.finish(null);
    await settle();
    expect(held.open).toHaveLength(MAX_IN_FLIGHT);
    held.open[0]?.finish(null);
    await settle();
    // 10 events in batches of 2: all five sent, never more than the cap at once, nothing dropped.
    expect(held.maxOpen()).toBe(MAX_IN_FLIGHT);
    for (const p of [...held.open]) p.finish(null);
    await settle();
    expect(held.open).toHaveLength(0);
    expect(held.sent).toEqual([2, 2, 2, 2, 2]);
    expect(warnings).toEqual([]);
  });

  it("over the queue: one warning naming the collector without its password, the count when an export succeeds", async () => {
    const held = heldPost();
    const warnings: string[] = [];
    const e = exporter(held.post, warnings);
    e.add([1, 2, 3, 4, 5, 6, 7, 8]);
    e.flush(); // 4 requests of 2 open, the queue empty
    e.add([9, 10, 11, 12, 13, 14, 15, 16, 17, 18]); // fills the queue of 10
    e.add([19, 20, 21]);
    e.add([22]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^traces: the export queue is full \(10 events; 4 exports to http:\/\/team@collector:4318\/v1\/traces open\)/,
    );
    held.open[0]?.finish(null);
    await settle();
    expect(warnings[1]).toBe("traces: 4 events were dropped: the export queue was full");
    for (const p of [...held.open]) p.finish("HTTP 503");
    await settle();
    expect(warnings[2]).toMatch(
      /^traces: cannot export to http:\/\/team@collector:4318\/v1\/traces \(HTTP 503\)/,
    );
    expect(warnings.join("\n")).not.toContain("pw-never-shown");
  });

  it("at shutdown: waits within the bound, aborts what is open and counts what was never sent", async () => {
    const held = heldPost();
    const warnings: string[] = [];
    const e = exporter(held.post, warnings);
    e.add([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    e.add([11, 12, 13]);
    // On fake time (setImmediate, which settle() uses, stays real): the bound to the millisecond.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      let ended = false;
      const shutdown = e.shutdown(100).then(() => {
        ended = true;
      });
      await vi.advanceTimersByTimeAsync(99);
      expect([ended, held.open.length]).toEqual([false, MAX_IN_FLIGHT]); // still waiting for them
      await vi.advanceTimersByTimeAsync(1);
      await shutdown;
    } finally {
      vi.useRealTimers();
    }
    await settle();
    expect(held.open).toHaveLength(0); // aborted
    expect(warnings).toContain("traces: 3 events were dropped: the export queue was full");
    expect(warnings).toContain("traces: 2 events were not sent before shutdown");
    e.add([14]); // after shutdown: ignored
    e.flush();
    expect(held.open).toHaveLength(0);
  });
});

describe("over real sockets", () => {
  it("a collector dribbling a header line every 100 ms cannot stretch the deadline", async () => {
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.once("data", () => {
        socket.write("HTTP/1.1 200 OK\r\n");
        const timer = setInterval(() => socket.write("x-dribble: 1\r\n"), 100);
        socket.on("close", () => {
          clearInterval(timer);
          sockets.delete(socket);
        });
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    try {
      const post = createHttpPost(MAX_IN_FLIGHT);
      const t0 = performance.now();
      const problem = await post({
        url: `http://127.0.0.1:${port}/v1/traces`,
        headers: new Map(),
        contentType: "application/json",
        body: Buffer.from("{}"),
        timeoutMs: 400,
      }).done;
      expect(problem).toBe("no answer within 400 ms");
      expect(performance.now() - t0).toBeLessThan(400 + 3_000);
      // The socket was destroyed, not left to the collector.
      await new Promise((r) => setTimeout(r, 200));
      expect(sockets.size).toBe(0);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  it("a healthy collector gets one keep-alive connection for many exports", async () => {
    let connections = 0;
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200).end());
    });
    server.on("connection", () => connections++);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    try {
      const post = createHttpPost(MAX_IN_FLIGHT);
      for (let i = 0; i < 5; i++) {
        const problem = await post({
          url: `http://127.0.0.1:${port}/v1/traces`,
          headers: new Map([["x-team", "flows"]]),
          contentType: "application/json",
          body: Buffer.from("{}"),
          timeoutMs: 10_000,
        }).done;
        expect(problem).toBeNull();
      }
      expect(connections).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
