// A webhook receiver for the tests of `stratumc ui --notify`: node:http on 127.0.0.1, recording
// each POST it gets (when, path, parsed body) and answering from a script: each answer in turn
// (status and headers), then 200 for the rest.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

interface Received {
  readonly at: number;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

export interface Answer {
  /** 0: no answer at all (the request hangs until the client gives up). */
  readonly status: number;
  readonly headers?: Record<string, string>;
}

export interface Receiver {
  /** `http://127.0.0.1:PORT/hooks/T000/B000/secret-path` (a path like a Slack webhook's). */
  readonly url: string;
  readonly received: Received[];
  /** Resolves once `count` requests have come (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export const SECRET_PATH = "/services/T0SECRET/B0SECRET/xoxSecretWebhookPath";

export async function startReceiver(script: readonly Answer[] = []): Promise<Receiver> {
  const answers = [...script];
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        body = { unparsable: Buffer.concat(chunks).toString("utf8") };
      }
      received.push({ at: Date.now(), path: request.url ?? "", headers: request.headers, body });
      const answer = answers.shift() ?? { status: 200 };
      for (const w of waiters) if (received.length >= w.count) w.resolve();
      if (answer.status === 0) return;
      response.writeHead(answer.status, { "Content-Type": "text/plain", ...answer.headers });
      response.end(answer.status === 200 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${SECRET_PATH}`,
    received,
    waitFor(count, timeoutMs = 15_000) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${received.length} of ${count} notifications came in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port nothing listens on (bound, then closed). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
