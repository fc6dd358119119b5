// A collector that answers slowly or never, and OTLP settings holding secrets, against the built
// stratum-mcp (docs/guides/tracing.md, "Export never gets in a call's way" and "Secrets"). Telemetry must
// never cost a call: under a 64-descriptor limit every step_done answers, the exports in flight stay
// bounded (a total deadline per request, a cap on requests), what cannot wait is dropped with one
// warning and counted at shutdown. And no password of the endpoint URL, no header value ever
// reaches standard error or an answer.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "../cli/run-cli";
import { closedPort } from "../host/tracing/otlp-receiver";
import { RawSession, toolContent } from "../mcp/support/raw-session";
import { MCP_BIN } from "../mcp/support/server";
import { type Sandbox, sandbox } from "./mcp-support";

/** What the exporter may hold open at once (host/tracing/exporter.ts, MAX_IN_FLIGHT). */
const MAX_IN_FLIGHT = 4;
const FD_LIMIT = 64;
const DEADLINE_MS = 3_000;

interface HostileCollector {
  readonly url: string;
  /** Connections open now, the most open at once, and all accepted. */
  open(): number;
  readonly stats: { maxOpen: number; accepted: number };
  close(): Promise<void>;
}

/**
 * `trickle`: answers a status line, then one header line every 2 s, never the end of the headers
 * (an idle timeout never fires). `silent`: accepts and never writes a byte.
 */
async function hostileCollector(kind: "trickle" | "silent"): Promise<HostileCollector> {
  const sockets = new Set<Socket>();
  const stats = { maxOpen: 0, accepted: 0 };
  const server = createServer((socket) => {
    sockets.add(socket);
    stats.accepted++;
    stats.maxOpen = Math.max(stats.maxOpen, sockets.size);
    let timer: ReturnType<typeof setInterval> | null = null;
    socket.on("error", () => undefined);
    socket.once("data", () => {
      if (kind === "silent") return;
      socket.write("HTTP/1.1 200 OK\r\n");
      let n = 0;
      timer = setInterval(() => socket.write(`x-trickle-${n++}: 1\r\n`), 2_000);
    });
    socket.on("close", () => {
      if (timer !== null) clearInterval(timer);
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    open: () => sockets.size,
    stats,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A flow `main` of `steps` infer steps, each returning `{n: number}`. */
function longSpec(steps: number): string {
  const lines = [
    'version: "0.2"',
    "contracts:",
    "  Out:",
    "    n: {type: number}",
    "functions:",
    "  work:",
    "    mode: infer",
    "    intent: Work.",
    "    input: {}",
    "    output: Out",
    "flows:",
    "  main:",
    "    input: {}",
    "    steps:",
  ];
  for (let i = 0; i < steps; i++)
    lines.push(`      - id: s${i}`, "        function: work", "        inputs: {}");
  return `${lines.join("\n")}\n`;
}

function openDescriptors(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

let box: Sandbox | null = null;
let session: RawSession | null = null;
let collector: HostileCollector | null = null;

afterEach(async () => {
  await session?.kill();
  await collector?.close();
  box?.dispose();
  session = null;
  collector = null;
  box = null;
});

let nextId = 0;
async function call(
  s: RawSession,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const answer = await s.request(`c${nextId++}`, "tools/call", { name, arguments: args });
  return toolContent(answer);
}

describe.each([
  ["trickles one header line every 2 s", "trickle", 300],
  ["accepts and never answers", "silent", 200],
] as const)("a collector that %s", (_what, kind, steps) => {
  it(`under ulimit -n ${FD_LIMIT}: every call answers, descriptors stay bounded, one warning about drops`, async () => {
    collector = await hostileCollector(kind);
    box = sandbox("stratumc-hostile-otlp-");
    session = new RawSession(box, {
      fdLimit: FD_LIMIT,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_BSP_SCHEDULE_DELAY: "10",
        OTEL_EXPORTER_OTLP_TIMEOUT: String(DEADLINE_MS),
        OTEL_BSP_MAX_QUEUE_SIZE: "64",
      },
    });
    const s = session;
    await s.initialize();
    const plan = await call(s, "stratum_plan", { spec: longSpec(steps), flow: "main", inputs: {} });
    expect(plan.status).toBe("execute_step");
    const flowId = String(plan.flow_id);
    const baseline = openDescriptors(s.pid);
    let maxFds = baseline;
    const started = Date.now();
    for (let i = 0; i < steps; i++) {
      const answer = await call(s, "stratum_step_done", {
        flow_id: flowId,
        step_id: `s${i}`,
        result: { n: i },
      });
      expect(answer, `step_done ${i}: ${JSON.stringify(answer)}`).toMatchObject({
        status: i === steps - 1 ? "complete" : "execute_step",
      });
      if (i % 5 === 0) maxFds = Math.max(maxFds, openDescriptors(s.pid));
    }
    // The total deadline ends the first exports however the collector dribbles.
    await s.until(
      () => s.stderr.includes(`no answer within ${DEADLINE_MS} ms`),
      "the deadline warning",
      DEADLINE_MS + 15_000,
    );
    maxFds = Math.max(maxFds, openDescriptors(s.pid));
    const ranMs = Date.now() - started;
    const code = await s.closeInput();
    expect(code).toBe(0);
    const lines = s.stderr.split("\n").filter((l) => l !== "");
    expect(lines.filter((l) => l.includes("cannot export"))).toHaveLength(1);
    expect(lines.filter((l) => l.includes("the export queue is full"))).toHaveLength(1);
    const counted = lines.filter((l) => /traces: \d+ events were dropped/.test(l));
    expect(counted, s.stderr).toHaveLength(1);
    expect(Number(/(\d+) events/.exec(counted[0] ?? "")?.[1])).toBeGreaterThan(0);
    // The sockets of telemetry: at most the cap (a closing one may overlap a new one).
    expect(maxFds - baseline, `descriptors ${baseline} → ${maxFds}`).toBeLessThanOrEqual(MAX_IN_FLIGHT + 4);
    expect(collector.stats.maxOpen).toBeLessThanOrEqual(MAX_IN_FLIGHT + 2);
    // One batch per deadline and slot, not one connection per batch.
    expect(collector.stats.accepted).toBeLessThanOrEqual(
      MAX_IN_FLIGHT * (Math.ceil(ranMs / DEADLINE_MS) + 2),
    );
  }, 90_000);
});

describe("secrets are never printed", () => {
  const SECRET = "s3cr3t";

  it("a password in the endpoint URL and malformed header entries holding secrets", async () => {
    const port = await closedPort();
    box = sandbox("stratumc-hostile-otlp-");
    session = new RawSession(box, {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://stratum:${SECRET}-url@127.0.0.1:${port}`,
        OTEL_EXPORTER_OTLP_HEADERS: [
          `authorization=Bearer%20${SECRET}-well-formed`,
          `${SECRET}-entry-without-key`,
          `=${SECRET}-empty-key`,
          `x-api-key=%ZZ${SECRET}-bad-encoding`,
          `x-control=${SECRET}%0Acontrol-character`,
        ].join(","),
        OTEL_BSP_SCHEDULE_DELAY: "10",
      },
    });
    const s = session;
    await s.initialize();
    const plan = await call(s, "stratum_plan", { spec: longSpec(3), flow: "main", inputs: {} });
    expect(plan.status).toBe("execute_step");
    for (let i = 0; i < 3; i++) {
      const answer = await call(s, "stratum_step_done", {
        flow_id: String(plan.flow_id),
        step_id: `s${i}`,
        result: { n: i },
      });
      expect(answer.status).toBe(i === 2 ? "complete" : "execute_step");
    }
    await s.until(() => s.stderr.includes("cannot export"), "the export warning");
    expect(await s.closeInput()).toBe(0);
    expect(s.stderr).not.toContain(SECRET);
    expect(s.lines.join("\n")).not.toContain(SECRET);
    // The warnings still say which entry: by position when it has no usable key, else by key.
    expect(s.stderr).toContain("entry 2");
    expect(s.stderr).toContain("entry 3");
    expect(s.stderr).toContain("'x-api-key'");
    expect(s.stderr).toContain("'x-control'");
    expect(s.stderr).toMatch(
      /cannot export to http:\/\/stratum@127\.0\.0\.1:\d+\/v1\/traces \(ECONNREFUSED\)/,
    );
  }, 30_000);

  it.each([
    ["a non-http scheme", `ftp://stratum:${SECRET}@collector.example/v1/traces`],
    ["no scheme", `stratum:${SECRET}@collector.example:4318`],
    ["an unparseable URL", `http://stratum:${SECRET}@[collector:4318/v1/traces`],
  ])(
    "an endpoint with %s that turns tracing off",
    async (_what, endpoint) => {
      box = sandbox("stratumc-hostile-otlp-");
      session = new RawSession(box, { env: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint } });
      const s = session;
      await s.initialize();
      expect(await s.closeInput()).toBe(0);
      expect(s.stderr).toContain("is not an http(s) URL; tracing is off");
      expect(s.stderr).not.toContain(SECRET);
    },
    30_000,
  );

  it.each([
    ["stratumc query flows", ["query", "flows"]],
    ["stratumc flows migrate --from", ["flows", "migrate", "--from", "STORE", "--to", "elsewhere"]],
    ["stratum-mcp", []],
  ])(
    "a store URL of another scheme (a typo) with %s: refused by name, no directory made of it",
    (_what, args) => {
      ensureBundle();
      box = sandbox("stratumc-hostile-store-typo-");
      const store = `postgress://team:${SECRET}@db.example/flows`;
      const bin = args.length === 0 ? MCP_BIN : join(REPO, "bin/stratumc.cjs");
      const run = spawnSync(process.execPath, [bin, ...args.map((a) => (a === "STORE" ? store : a))], {
        cwd: box.cwd,
        env: { ...process.env, STRATUM_HOME: box.home, STRATUM_STORE: store },
        input: "",
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /the store must be a postgres:\/\/ URL or a directory, not postgress:\/\/team@db\.example\/flows/,
      );
      expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
      expect(box.tree().filter((p) => p.startsWith("work/"))).toEqual(["work/sub"]);
    },
  );
});
