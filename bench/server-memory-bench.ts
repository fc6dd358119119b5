// The MCP server's memory over a long life: the built bin/stratum-mcp.cjs over stdio
// with a durable file store runs 10,000 flows to completion (stratum_plan, then the step_done
// that finishes each), and its resident set size (VmRSS from /proc) is read after 10, 1,000 and
// 10,000 finished flows. Two figures: the growth from 10 to 10,000 (target ≤ 20 MB), with the
// RSS after 10 flows as the baseline measured in the same run; and the slope after warm-up, MB per
// 1,000 flows from 1,000 to 10,000 (target ≤ 1 MB: a finished flow leaves nothing behind, so
// the memory is flat once the caches are full). Read on Linux only (/proc).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LineClient } from "./lib/line-client";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";

const FLOWS = 10_000;
const CHECKPOINTS = [10, 1_000, 5_000, FLOWS];
/** Each checkpoint's figure is the median of the RSS read after each of its last 9 flows. */
const SAMPLES = 9;
const TARGET_GROWTH_MB = 20;
/** Warm-up: the registry (256 flows) and the other bounded caches are full well before it. */
const WARM = 1_000;
const TARGET_SLOPE_MB = 1;

/** A realistic single-step flow (contracts, ensure, an input), ~1 KB of spec text per flow file. */
const SPEC = `version: "0.2"
contracts:
  Review:
    approved: {type: boolean}
    summary: {type: string}
    findings: {type: array, items: {type: string}}
functions:
  review:
    mode: infer
    intent: "Review the change for correctness, tests and naming; list every finding"
    input:
      change: {type: string}
    output: Review
    ensure:
      - "len(result.summary) > 0"
      - "result.approved or len(result.findings) > 0"
    retries: 2
flows:
  main:
    input:
      change: {type: string}
    output: Review
    steps:
      - id: review
        function: review
        inputs:
          change: $.input.change
`;

const RESULT = { approved: true, summary: "looks right; tests cover the new branch", findings: [] };

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (kb === undefined) throw new Error("server memory bench: no VmRSS in /proc status");
  return Number(kb) / 1024;
}

export interface ServerMemoryBench {
  readonly rows: Row[];
  /** RSS in MB after each checkpoint's number of finished flows. */
  readonly rssMbAfter: Record<number, number>;
}

export async function benchServerMemory(repoDir: string): Promise<ServerMemoryBench> {
  const root = mkdtempSync(join(tmpdir(), "stratumc-memory-bench-"));
  // Started as a program, as the MCP configuration `install` writes starts it: the launcher sets
  // the server's malloc arena limit (bin/stratum-mcp.cjs) and execs node, so the pid is node's.
  const child = spawn(join(repoDir, "bin/stratum-mcp.cjs"), [], {
    cwd: realpathSync(root),
    env: { ...process.env, STRATUM_HOME: join(root, "home") },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const pid = child.pid;
    if (pid === undefined) throw new Error("server memory bench: the server did not start");
    const client = new LineClient(child);
    await client.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "stratumc-memory-bench", version: "0.0.0" },
    });
    client.notify("notifications/initialized");
    const samples = new Map<number, number[]>(CHECKPOINTS.map((c) => [c, []]));
    for (let n = 1; n <= FLOWS; n++) {
      const plan = await client.callTool("stratum_plan", {
        spec: SPEC,
        flow: "main",
        inputs: { change: `change ${n}: rename the store's lock helper and add its tests` },
      });
      const done = await client.callTool("stratum_step_done", {
        flow_id: plan.flow_id,
        step_id: "review",
        result: RESULT,
      });
      if (done.status !== "complete")
        throw new Error(`server memory bench: flow ${n} ended '${String(done.status)}'`);
      for (const c of CHECKPOINTS) if (n <= c && n > c - SAMPLES) samples.get(c)?.push(rssMb(pid));
    }
    const rssMbAfter: Record<number, number> = {};
    for (const [c, xs] of samples) rssMbAfter[c] = median(xs);
    const first = rssMbAfter[CHECKPOINTS[0] as number] as number;
    const last = rssMbAfter[FLOWS] as number;
    const warm = rssMbAfter[WARM] as number;
    return {
      rows: [
        {
          metric: `MCP server RSS growth MB, 10 → ${FLOWS.toLocaleString("en")} finished flows (baseline: RSS after 10)`,
          median: last - first,
          baseline: first,
          ratio: last / first,
          target: TARGET_GROWTH_MB,
        },
        {
          metric: `MCP server RSS slope MB per 1,000 finished flows, ${WARM.toLocaleString("en")} → ${FLOWS.toLocaleString("en")} (baseline: RSS after ${WARM.toLocaleString("en")})`,
          median: ((last - warm) * 1_000) / (FLOWS - WARM),
          baseline: warm,
          ratio: last / warm,
          target: TARGET_SLOPE_MB,
        },
      ],
      rssMbAfter,
    };
  } finally {
    child.stdin?.end();
    await exited;
    rmSync(root, { recursive: true, force: true });
  }
}
