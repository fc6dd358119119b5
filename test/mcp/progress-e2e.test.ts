// Progress, cancellation and logging through the built stratum-mcp over stdio with the SDK's own
// client (docs/guides/mcp-server-progress.md): stratum_fuzz with a progress token gets rising
// notifications/progress whose total stays the run budget; without a token none; cancelled through
// the client's AbortSignal mid-run, the fuzz worker thread is gone within seconds, no progress
// follows, nothing answers the request, and a client at level `info` is told the runs it made;
// stratum_agent_run with an 11 s agent says once that it still runs; logging/setLevel filters what
// the client receives, and the start-up warning arrives.
import { chmodSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { CallToolResultSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { tinySpec } from "../hostile/mcp-support";
import { type RunningServer, startServer, tempDir } from "./support/server";
import { fewestThreads } from "./support/threads";

interface Wire {
  readonly at: number;
  readonly message: JSONRPCMessage;
}

interface Session {
  readonly server: RunningServer;
  /** Every message the server sent, in order, as it arrived. */
  readonly wire: Wire[];
  readonly logs: { level: string; data: unknown }[];
  /** The server process's threads now (Linux: /proc/<pid>/task). */
  threads(): number;
}

let running: { server: RunningServer; dispose(): void } | undefined;

afterEach(async () => {
  await running?.server.kill();
  running?.dispose();
  running = undefined;
});

async function start(
  env: Record<string, string> = {},
  home = tempDir("stratum-progress-"),
): Promise<Session> {
  const logs: { level: string; data: unknown }[] = [];
  const server = await startServer({
    cwd: home.path,
    home: home.path,
    env,
    beforeConnect: (client) =>
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
        logs.push({ level: n.params.level, data: n.params.data });
      }),
  });
  running = { server, dispose: () => home.dispose() };
  const wire: Wire[] = [];
  const transport = server.transport;
  const delivered = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    wire.push({ at: Date.now(), message });
    delivered?.(message);
  };
  const pid = server.child.pid as number;
  return { server, wire, logs, threads: () => readdirSync(`/proc/${pid}/task`).length };
}

interface ProgressParams {
  readonly progressToken: string | number;
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** The progress notifications the server sent: when, at which place of the wire, and their params. */
function progressOnWire(s: Session): (ProgressParams & { at: number; index: number })[] {
  return s.wire
    .map((w, index) => ({ w, index }))
    .filter(({ w }) => "method" in w.message && w.message.method === "notifications/progress")
    .map(({ w, index }) => ({
      at: w.at,
      index,
      ...(w.message as unknown as { params: ProgressParams }).params,
    }));
}

/** Where the answer to the request whose progress token is `token` is on the wire (the SDK's token is the request id). */
function answerIndex(s: Session, token: string | number | undefined): number {
  return s.wire.findIndex((w) => "id" in w.message && !("method" in w.message) && w.message.id === token);
}

async function until(done: () => boolean, what: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** One flow `main` of one step: a few milliseconds a run, no finding to minimize. */
const SPEC = tinySpec();

describe("progress of stratum_fuzz", () => {
  it("sends rising progress of the run budget with a token, and none without", async () => {
    const s = await start();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const runs = 400;
    const result = await s.server.client.callTool(
      { name: "stratum_fuzz", arguments: { spec: SPEC, runs, time_budget_ms: 30_000 } },
      CallToolResultSchema,
      { onprogress: (p) => seen.push(p), timeout: 60_000 },
    );
    const answer = result.structuredContent as Record<string, unknown>;
    expect(answer.status).toBe("fuzzed");
    expect(answer.runs).toBe(runs);
    // What the server sent. (The SDK client hands a notification to its handler a microtask
    // later and forgets the token when the answer comes: a last notification read together with
    // the answer may never reach `onprogress`, so the callback sees a prefix of these.)
    const onWire = progressOnWire(s);
    expect(onWire.length).toBeGreaterThanOrEqual(2);
    expect(seen).toEqual(
      onWire.slice(0, seen.length).map(({ at: _at, index: _i, progressToken: _t, ...p }) => p),
    );
    expect(onWire[0]).toMatchObject({ progress: 0, message: "checking the spec" });
    expect(onWire[0]?.total).toBeUndefined();
    for (let i = 1; i < onWire.length; i++) {
      expect(onWire[i]?.progress).toBeGreaterThan(onWire[i - 1]?.progress as number);
      expect(onWire[i]?.total).toBe(runs);
      expect(onWire[i]?.progress).toBeLessThanOrEqual(runs);
      expect(onWire[i]?.message).toMatch(/^exploring flow 'main' \(\d of 1 flow\(s\) done\): \d+ run\(s\)/);
    }
    // The last report is sent before the answer: every run was made.
    expect(onWire.at(-1)?.progress).toBe(runs);
    expect(answerIndex(s, onWire[0]?.progressToken)).toBeGreaterThan(onWire.at(-1)?.index as number);
    // Throttled: at most one notification per 250 ms, plus the first and the last.
    const span = (onWire.at(-1)?.at as number) - (onWire[0]?.at as number);
    expect(onWire.length).toBeLessThanOrEqual(Math.ceil(span / 250) + 3);

    const before = progressOnWire(s).length;
    const plain = await s.server.client.callTool(
      { name: "stratum_fuzz", arguments: { spec: SPEC, runs: 30, time_budget_ms: 30_000 } },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    expect((plain.structuredContent as Record<string, unknown>).status).toBe("fuzzed");
    expect(progressOnWire(s)).toHaveLength(before);
  }, 90_000);

  it("stops the fuzz worker on cancel: the thread gone, no progress after, no answer, the runs told at info", async () => {
    const s = await start();
    await s.server.client.setLoggingLevel("info");
    // A call first, so that the threads the server starts once are there before counting.
    await s.server.client.callTool({ name: "stratum_validate", arguments: { spec: SPEC } });
    // The fewest threads over a moment: a thread the runtime starts and ends by itself (the
    // platform's, a libuv one) must not count as the fuzz worker's, nor hide its end.
    const baseline = await fewestThreads(() => s.threads());
    const cancel = new AbortController();
    const seen: number[] = [];
    const call = s.server.client.callTool(
      { name: "stratum_fuzz", arguments: { spec: SPEC, runs: 10_000, time_budget_ms: 60_000 } },
      CallToolResultSchema,
      { signal: cancel.signal, onprogress: (p) => seen.push(p.progress), timeout: 120_000 },
    );
    const rejected = call.then(
      () => "answered",
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    await until(() => seen.some((p) => p > 0), "fuzzing progress", 30_000);
    await until(() => s.threads() > baseline, "the fuzz worker's thread", 10_000);
    const during = s.threads();
    const cancelledAt = Date.now();
    cancel.abort("enough");
    expect(await rejected).toMatch(/enough|abort/i);
    await until(() => s.threads() <= baseline, "the fuzz worker's thread to end", 5_000);
    const goneMs = Date.now() - cancelledAt;
    console.log(
      `stratum_fuzz cancel -> worker thread gone: ${goneMs} ms (threads ${during} -> ${s.threads()})`,
    );
    await until(() => s.logs.some((l) => l.level === "info"), "the cancelled call's log line", 5_000);
    const info = s.logs.find((l) => l.level === "info");
    expect(info?.data).toMatch(
      /^stratum_fuzz \(cancelled by the client\): cancelled by the client after \d+ ms while exploring flow 'main' \(0 of 1 flow\(s\) done\): \d+ run\(s\) and \d+ path\(s\) explored/,
    );
    const told = Number(/: (\d+) run\(s\)/.exec(String(info?.data))?.[1]);
    expect(told).toBeGreaterThan(0);
    expect(told).toBeLessThan(10_000);
    // Nothing more: no progress once the worker is gone, no answer to the cancelled request.
    const progressCount = progressOnWire(s).length;
    await new Promise((r) => setTimeout(r, 500));
    expect(progressOnWire(s)).toHaveLength(progressCount);
    expect(answerIndex(s, progressOnWire(s)[0]?.progressToken)).toBe(-1);
    // The server goes on, and a new fuzz gets the freed slot.
    const again = await s.server.client.callTool(
      { name: "stratum_fuzz", arguments: { spec: SPEC, runs: 20, time_budget_ms: 30_000 } },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    expect((again.structuredContent as Record<string, unknown>).status).toBe("fuzzed");
  }, 90_000);
});

describe("progress of stratum_agent_run", () => {
  it("says every 10 s that the agent still runs, without a total", async () => {
    const home = tempDir("stratum-progress-agent-");
    const agent = join(home.path, "agent.sh");
    writeFileSync(agent, "#!/bin/sh\ncat > /dev/null\nsleep 11\nprintf done\n");
    chmodSync(agent, 0o755);
    const s = await start({ STRATUM_AGENT_COMMAND: agent }, home);
    const result = await s.server.client.callTool(
      { name: "stratum_agent_run", arguments: { prompt: "wait" } },
      CallToolResultSchema,
      { onprogress: () => undefined, timeout: 60_000 },
    );
    expect(result.structuredContent).toMatchObject({ text: "done" });
    const onWire = progressOnWire(s);
    expect(onWire.length).toBeGreaterThanOrEqual(1);
    expect(onWire[0]).toMatchObject({ progress: 1 });
    expect(onWire[0]?.message).toMatch(/^stratum_agent_run: running for 1\d s$/);
    expect(onWire.every((p) => p.total === undefined)).toBe(true);
    expect(answerIndex(s, onWire[0]?.progressToken)).toBeGreaterThan(onWire.at(-1)?.index as number);
  }, 60_000);
});

describe("logging", () => {
  it("sends the start-up warning at the default level, and what logging/setLevel lets through", async () => {
    const s = await start({ STRATUM_AGENT_ENV: "PROBE_DIR,not a name" });
    await until(() => s.logs.length > 0, "the start-up warning", 10_000);
    expect(s.logs).toEqual([
      {
        level: "warning",
        data: "STRATUM_AGENT_ENV: 'not a name' is ignored: expected a variable name or a name prefix followed by '*'",
      },
    ]);
    // At the default level (warning) a cancelled call's info line is not sent; at info it is.
    const cancelOnce = async (): Promise<void> => {
      const cancel = new AbortController();
      const seen: number[] = [];
      const call = s.server.client
        .callTool(
          { name: "stratum_fuzz", arguments: { spec: SPEC, runs: 10_000, time_budget_ms: 60_000 } },
          CallToolResultSchema,
          { signal: cancel.signal, onprogress: (p) => seen.push(p.progress) },
        )
        .catch(() => undefined);
      await until(() => seen.length > 0, "progress", 30_000);
      cancel.abort();
      await call;
      // A ping after the cancel: its answer comes after anything the cancel made the server send.
      await s.server.client.ping();
      await new Promise((r) => setTimeout(r, 200));
      await s.server.client.ping();
    };
    await cancelOnce();
    expect(s.logs).toHaveLength(1);
    await s.server.client.setLoggingLevel("info");
    await cancelOnce();
    expect(s.logs.map((l) => l.level)).toEqual(["warning", "info"]);
    // A level the protocol does not know is refused with a short error.
    await expect(
      s.server.client.request(
        { method: "logging/setLevel", params: { level: "loud" as "info" } },
        (await import("@modelcontextprotocol/sdk/types.js")).EmptyResultSchema,
      ),
    ).rejects.toThrow(/-32602.*level/);
  }, 90_000);
});
