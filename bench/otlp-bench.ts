// OTLP traces (docs/guides/tracing.md): what tracing costs a tool call, with the collector down and with
// a collector that answers. Three built stratum-mcp servers over stdio, each finishing its own
// 1,000-step flow (the durable bench's flow, bench/durable-call-bench.ts), one step_done on each
// per round, interleaved (order rotating), 50 warm-up rounds then 950: one with
// OTEL_EXPORTER_OTLP_ENDPOINT pointed at a closed port (every export fails; the default 1 s batch
// delay, so failures happen while calls run), one pointed at a local collector in this process that
// answers 200 (the normal path: the keep-alive agent, the deadline timer, the in-flight cap), one
// with tracing off. Ratio = traced p50 ÷ untraced p50 (target ~1.0), and the same for p99.
import * as fs from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { longFlowSpec, stepResult } from "./durable-call-bench";
import { type LineServer, startLineServer } from "./lib/line-client";
import { median, percentile } from "./lib/stats";
import type { Row } from "./lib/table";

const STEPS = 1_000;
const WARMUP = 50;
const ROUNDS = STEPS - WARMUP;
/** Tracing must cost nothing measurable: at most noise. */
const TARGET_RATIO = 1.1;

/** A TCP port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A collector that takes every export and answers 200 (nothing decoded: only the server's cost is measured). */
async function liveCollector(): Promise<{ url: string; server: Server; exports: () => number }> {
  let exports = 0;
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => {
      exports++;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, server, exports: () => exports };
}

interface Side {
  readonly server: LineServer;
  readonly flowId: string;
  readonly samples: number[];
  done: number;
}

async function startSide(repoDir: string, root: string, name: string, env: NodeJS.ProcessEnv): Promise<Side> {
  const home = join(root, name);
  const server = await startLineServer(
    [join(repoDir, "bin/stratum-mcp.cjs")],
    root,
    { STRATUM_HOME: home, ...env },
    "stratumc-otlp-bench",
  );
  const plan = await server.client.callTool("stratum_plan", {
    spec: longFlowSpec(STEPS),
    flow: "main",
    inputs: { topic: "tracing overhead" },
  });
  if (plan.status !== "execute_step") throw new Error(`otlp bench: plan answered '${String(plan.status)}'`);
  return { server, flowId: String(plan.flow_id), samples: [], done: 0 };
}

async function stepDone(side: Side): Promise<void> {
  const n = side.done + 1;
  const answer = await side.server.client.callTool("stratum_step_done", {
    flow_id: side.flowId,
    step_id: `s${n - 1}`,
    result: stepResult(n),
  });
  const expected = n === STEPS ? "complete" : "execute_step";
  if (answer.status !== expected)
    throw new Error(`otlp bench: step_done ${n} answered '${String(answer.status)}'`);
  side.done = n;
}

export async function benchOtlp(repoDir: string): Promise<Row[]> {
  const root = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), "stratumc-otlp-bench-")));
  const sides: Side[] = [];
  const collector = await liveCollector();
  try {
    const port = await closedPort();
    const plain = await startSide(repoDir, root, "plain", { OTEL_SDK_DISABLED: "true" });
    sides.push(plain);
    const traced = await startSide(repoDir, root, "traced", {
      OTEL_SDK_DISABLED: "false",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    });
    sides.push(traced);
    const live = await startSide(repoDir, root, "live", {
      OTEL_SDK_DISABLED: "false",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    });
    sides.push(live);
    const all = [plain, traced, live];
    for (let r = -WARMUP; r < ROUNDS; r++) {
      const k = ((r % 3) + 3) % 3;
      const order = [...all.slice(k), ...all.slice(0, k)];
      for (const side of order) {
        const t0 = performance.now();
        await stepDone(side);
        const ms = performance.now() - t0;
        if (r >= 0) side.samples.push(ms);
      }
    }
    const p50 = (s: Side) => median(s.samples);
    const p99 = (s: Side) => percentile(s.samples, 99);
    const at = `steps ${WARMUP + 1}–${STEPS.toLocaleString("en-US")} of a ${STEPS.toLocaleString("en-US")}-step flow`;
    return [
      {
        metric: "otlp: MCP step_done p50 ms, tracing off",
        median: p50(plain),
        baseline: null,
        ratio: null,
        target: null,
      },
      {
        metric: `otlp: MCP step_done p50 ms, OTLP at a closed port, ${at} (baseline: tracing off)`,
        median: p50(traced),
        baseline: p50(plain),
        ratio: p50(traced) / p50(plain),
        target: null,
        targetRatio: TARGET_RATIO,
      },
      {
        metric: "otlp: MCP step_done p99 ms, OTLP at a closed port (baseline: tracing off)",
        median: p99(traced),
        baseline: p99(plain),
        ratio: p99(traced) / p99(plain),
        target: null,
      },
      {
        metric: `otlp: MCP step_done p50 ms, OTLP to a live local collector (${collector.exports()} exports), ${at} (baseline: tracing off)`,
        median: p50(live),
        baseline: p50(plain),
        ratio: p50(live) / p50(plain),
        target: null,
        targetRatio: TARGET_RATIO,
      },
      {
        metric: "otlp: MCP step_done p99 ms, OTLP to a live local collector (baseline: tracing off)",
        median: p99(live),
        baseline: p99(plain),
        ratio: p99(live) / p99(plain),
        target: null,
      },
    ];
  } finally {
    for (const side of sides) {
      side.server.child.stdin?.end();
      await side.server.exited;
    }
    await new Promise<void>((resolve) => collector.server.close(() => resolve()));
    fs.rmSync(root, { recursive: true, force: true });
  }
}
