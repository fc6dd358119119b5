// Delivery of notifications (ui/notify/sender.ts) to real receivers on 127.0.0.1: tried again
// after a 500, after a 429 no sooner than its Retry-After, given up with a warning when the
// receiver is down or does not answer in time, refused at once on a 404; a warning never shows the
// webhook's path; `send` returns at once, and a queue that is full drops its oldest.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { GateNotification } from "../../../ui/notify/message";
import { NotificationSender, type SenderOptions } from "../../../ui/notify/sender";
import { parseNotifyTargets } from "../../../ui/notify/targets";
import { deadPort, type Receiver, SECRET_PATH, startReceiver } from "./receiver";

const NOTE: GateNotification = {
  text: "Gate approve of flow main (f1) is waiting for a decision.",
  event: "gate_waiting",
  flow_id: "f1",
  flow_name: "main",
  step_id: "approve",
  function: "review",
  approves: null,
  since: "2026-01-01T00:00:00.000Z",
  since_ms: 0,
  timeout_seconds: null,
  link: "http://127.0.0.1:7777/#/flow/f1",
};

const receivers: Receiver[] = [];
let sender: NotificationSender | null = null;

afterEach(async () => {
  sender?.close();
  sender = null;
  for (const r of receivers.splice(0)) await r.close();
});

/** A sender to `urls` with short waits; resolves each delivery's result in order. */
function senderTo(urls: readonly string[], options: Partial<SenderOptions> = {}) {
  const warnings: string[] = [];
  const results: boolean[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const parsed = parseNotifyTargets(urls);
  if (!parsed.ok) throw new Error(parsed.message);
  sender = new NotificationSender(parsed.targets, {
    attempts: 3,
    backoff: { baseMs: 20, capMs: 2_000 },
    timeoutMs: 2_000,
    random: () => 0.5,
    warn: (m) => warnings.push(m),
    settled: (delivered) => {
      results.push(delivered);
      for (const w of waiting) if (results.length >= w.n) w.resolve();
    },
    ...options,
  });
  return {
    sender,
    warnings,
    results,
    settled: (n: number) =>
      results.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve })),
  };
}

async function receiver(script: Parameters<typeof startReceiver>[0] = []): Promise<Receiver> {
  const r = await startReceiver(script);
  receivers.push(r);
  return r;
}

describe("delivering a notification", () => {
  it("posts the JSON body once when the receiver takes it", async () => {
    const r = await receiver();
    const s = senderTo([r.url]);
    s.sender.send(NOTE);
    await s.settled(1);
    expect(r.received.map((x) => x.body)).toEqual([NOTE]);
    expect(r.received[0]?.headers["content-type"]).toBe("application/json");
    expect(s.results).toEqual([true]);
    expect(s.warnings).toEqual([]);
  });

  it("tries again after a 500, and after a 429 waits for its Retry-After", async () => {
    const r = await receiver([
      { status: 500 },
      { status: 429, headers: { "Retry-After": "1" } },
      { status: 503 },
    ]);
    const s = senderTo([r.url], { attempts: 4 });
    s.sender.send(NOTE);
    await s.settled(1);
    expect(r.received).toHaveLength(4);
    expect(s.results).toEqual([true]);
    const at = r.received.map((x) => x.at);
    expect((at[2] ?? 0) - (at[1] ?? 0)).toBeGreaterThanOrEqual(950); // the Retry-After second
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeLessThan(900); // the backoff's 20 ms, on a busy machine
    expect(s.warnings).toEqual([]);
  }, 15_000);

  it("gives up after the last attempt with a warning that names only the host", async () => {
    const port = await deadPort();
    const s = senderTo([`http://127.0.0.1:${port}${SECRET_PATH}?key=abc`]);
    s.sender.send(NOTE);
    await s.settled(1);
    expect(s.results).toEqual([false]);
    expect(s.warnings).toEqual([
      `the notification of gate "approve" of flow f1 to http://127.0.0.1:${port}/… failed 3 time(s) (last: ECONNREFUSED); giving up`,
    ]);
  });

  it("gives up on a receiver that does not answer in time", async () => {
    const r = await receiver([{ status: 0 }, { status: 0 }]);
    const s = senderTo([r.url], { attempts: 2, timeoutMs: 300 });
    s.sender.send(NOTE);
    await s.settled(1);
    expect(r.received).toHaveLength(2);
    expect(s.warnings[0]).toMatch(/failed 2 time\(s\) \(last: no answer in time\); giving up$/);
    expect(s.warnings.join("\n")).not.toContain("SECRET");
  }, 15_000);

  it("does not read a receiver's answer: an endless one neither holds the delivery nor fills memory", async () => {
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "Content-Type": "application/octet-stream" });
        const chunk = Buffer.alloc(64 * 1024, 120);
        const pump = (): void => {
          while (response.write(chunk));
          response.once("drain", pump);
        };
        pump();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const s = senderTo([`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`], {
        timeoutMs: 30_000,
      });
      s.sender.send(NOTE);
      await s.settled(1);
      expect(s.results).toEqual([true]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 20_000);

  it("does not try again an answer that will not change (404)", async () => {
    const r = await receiver([{ status: 404 }]);
    const s = senderTo([r.url]);
    s.sender.send(NOTE);
    await s.settled(1);
    expect(r.received).toHaveLength(1);
    expect(s.warnings).toEqual([
      `the notification of gate "approve" of flow f1 to ${new URL(r.url).origin}/… was refused (HTTP 404); not sent`,
    ]);
  });

  it("returns from send at once, keeps each receiver's queue apart, and drops the oldest of a full queue", async () => {
    const slow = await receiver([{ status: 0 }, { status: 0 }, { status: 0 }, { status: 0 }]);
    const fast = await receiver();
    const s = senderTo([slow.url, fast.url], { attempts: 1, timeoutMs: 500, queueMax: 2 });
    const started = Date.now();
    for (let i = 0; i < 4; i++) s.sender.send({ ...NOTE, flow_id: `f${i}` });
    expect(Date.now() - started).toBeLessThan(100);
    // f0 went out at once, f1 and f2 filled each queue, f3 pushed f1 out of both. The fast
    // receiver has the three while the slow one still holds the first.
    await fast.waitFor(3, 5_000);
    expect(fast.received.map((x) => x.body.flow_id)).toEqual(["f0", "f2", "f3"]);
    expect(slow.received).toHaveLength(1);
    await s.settled(8);
    expect(slow.received.map((x) => x.body.flow_id)).toEqual(["f0", "f2", "f3"]);
    expect(s.warnings.filter((w) => /dropped/.test(w)).sort()).toEqual(
      [slow, fast]
        .map(
          (r) =>
            `2 notifications wait for ${new URL(r.url).origin}/…: the oldest (gate "approve" of flow f1) is dropped`,
        )
        .sort(),
    );
  }, 15_000);
});
