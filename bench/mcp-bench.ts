// The MCP server's cost per tool call: stratum_step_done over stdio to the built
// bin/stratum-mcp.cjs (durable file store in a temporary STRATUM_HOME) against the same calls on an
// in-process engine over the same kind of store, measured in interleaved rounds in the same run.
// Two clients drive the server: a minimal line client (one JSON line out, JSON.parse of the answer
// and of its text: the server's and the pipe's cost) and the SDK's Client + StdioClientTransport
// (what most agents use: it adds its own schema validation of every result). One round = stratum_plan of a ten-step flow, then
// the ten step_done calls that finish it (so the flow file keeps a realistic, bounded size); every
// step_done is timed on its own, from the call to the decoded answer. p50 / p99 over all of them,
// and sequential tool calls per second over whole rounds (plan included). Each round also times one
// stratum_audit (a call that writes nothing), which shows the transport's own cost apart from the
// durable write (flushed temporary file, rename, directory flush) that dominates step_done.

import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { composeHost } from "../host/compose";
import { FileFlowStore } from "../host/index";
import type { StratumApi } from "../interpreter/api";
import { wireToPlain } from "../interpreter/wire/encode";
import { fromJsonValue } from "../stdlib/values/json";
import { startLineServer } from "./lib/line-client";
import type { Row } from "./lib/table";

const ROUNDS = 150;
const WARMUP = 15;
const STEPS = 10;
const TARGET_P50_MS = 1;

const SPEC = `version: "0.2"
contracts:
  Progress:
    done: {type: boolean}
    note: {type: string}
    score: {type: number}
functions:
  work:
    mode: infer
    intent: "Carry out one unit of the work and say how it went"
    input:
      topic: {type: string}
    output: Progress
    ensure:
      - "result.done"
      - "len(result.note) > 0 and 0 <= result.score <= 1"
flows:
  main:
    input:
      topic: {type: string}
    steps:
${Array.from(
  { length: STEPS },
  (_, i) =>
    `      - id: s${i}\n        function: work\n        inputs:\n          topic: $.input.topic` +
    (i === 0 ? "" : `\n        depends_on: [s${i - 1}]`),
).join("\n")}
`;

const INPUTS = { topic: "durable agent workflows" };
const RESULT = { done: true, note: "unit finished, tests pass", score: 0.75 };

export interface McpBench {
  readonly rows: Row[];
  readonly rounds: number;
  readonly stepDoneCalls: number;
  readonly mcpCallsPerSecond: number;
  readonly inProcessCallsPerSecond: number;
}

/** One side of the comparison: plan and step_done, answers as plain data. */
interface Side {
  plan(): Promise<Record<string, unknown>>;
  stepDone(flowId: string, stepId: string): Promise<Record<string, unknown>>;
  audit(flowId: string): Promise<Record<string, unknown>>;
}

function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

function inProcessSide(home: string, cwd: string): Side {
  const api: StratumApi = composeHost({
    cwd,
    env: {},
    store: { store: new FileFlowStore(home), where: home },
  }).api();
  const plain = (r: unknown) => wireToPlain(r as never) as Record<string, unknown>;
  return {
    plan: async () => plain(await api.plan({ spec: SPEC, flow: "main", inputs: fromJsonValue(INPUTS) })),
    stepDone: async (flow_id, step_id) =>
      plain(await api.stepDone({ flow_id, step_id, result: fromJsonValue(RESULT) })),
    audit: async (flow_id) => plain(await api.audit({ flow_id })),
  };
}

function toolSide(
  call: (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Side {
  return {
    plan: () => call("stratum_plan", { spec: SPEC, flow: "main", inputs: INPUTS }),
    stepDone: (flow_id, step_id) => call("stratum_step_done", { flow_id, step_id, result: RESULT }),
    audit: (flow_id) => call("stratum_audit", { flow_id }),
  };
}

async function lineSide(
  repoDir: string,
  home: string,
  cwd: string,
): Promise<{ side: Side; close(): Promise<void> }> {
  const { client, child, exited } = await startLineServer(
    [join(repoDir, "bin/stratum-mcp.cjs")],
    cwd,
    { STRATUM_HOME: home },
    "stratumc-mcp-bench",
  );
  return {
    side: toolSide((name, args) => client.callTool(name, args)),
    close: async () => {
      child.stdin?.end();
      await exited;
    },
  };
}

async function sdkSide(
  repoDir: string,
  home: string,
  cwd: string,
): Promise<{ side: Side; close(): Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(repoDir, "bin/stratum-mcp.cjs")],
    cwd,
    env: { STRATUM_HOME: home },
    stderr: "inherit",
  });
  const client = new Client({ name: "stratumc-mcp-bench", version: "0.0.0" });
  await client.connect(transport);
  return {
    side: toolSide(async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      const item = (result.content as { type: string; text?: string }[])[0];
      return JSON.parse(item?.text ?? "null") as Record<string, unknown>;
    }),
    close: () => client.close(),
  };
}

interface RoundTimes {
  readonly stepNs: number[];
  /** The whole round (plan and step_done calls). */
  readonly roundNs: number;
  readonly auditNs: number;
}

/** One round, then one audit of the finished flow. */
async function round(side: Side): Promise<RoundTimes> {
  const start = process.hrtime.bigint();
  const plan = await side.plan();
  const flowId = String(plan.flow_id);
  const stepNs: number[] = [];
  let last = "";
  for (let i = 0; i < STEPS; i++) {
    const t0 = process.hrtime.bigint();
    last = String((await side.stepDone(flowId, `s${i}`)).status);
    stepNs.push(Number(process.hrtime.bigint() - t0));
  }
  if (last !== "complete") throw new Error(`mcp bench: the flow ended with '${last}', not 'complete'`);
  const roundNs = Number(process.hrtime.bigint() - start);
  const a0 = process.hrtime.bigint();
  const audit = await side.audit(flowId);
  const auditNs = Number(process.hrtime.bigint() - a0);
  if (audit.status !== "complete") throw new Error(`mcp bench: audit says '${String(audit.status)}'`);
  return { stepNs, roundNs, auditNs };
}

type SideName = "line" | "sdk" | "local";

export async function benchMcp(repoDir: string): Promise<McpBench> {
  const root = mkdtempSync(join(tmpdir(), "stratumc-mcp-bench-"));
  const cwd = realpathSync(root);
  const servers: { close(): Promise<void> }[] = [];
  try {
    const line = await lineSide(repoDir, join(root, "line-home"), cwd);
    servers.push(line);
    const sdk = await sdkSide(repoDir, join(root, "sdk-home"), cwd);
    servers.push(sdk);
    const sides: Record<SideName, Side> = {
      line: line.side,
      sdk: sdk.side,
      local: inProcessSide(join(root, "local-home"), cwd),
    };
    const names: SideName[] = ["line", "sdk", "local"];
    const times = Object.fromEntries(
      names.map((n) => [n, { steps: [] as number[], rounds: [] as number[], audits: [] as number[] }]),
    ) as Record<SideName, { steps: number[]; rounds: number[]; audits: number[] }>;
    for (let r = -WARMUP; r < ROUNDS; r++) {
      // Rotate which side goes first so none always runs on a warmer cache.
      for (let k = 0; k < names.length; k++) {
        const which = names[(k + r + WARMUP) % names.length]!;
        const t = await round(sides[which]);
        if (r < 0) continue;
        times[which].steps.push(...t.stepNs);
        times[which].rounds.push(t.roundNs);
        times[which].audits.push(t.auditNs);
      }
    }
    const ms = (ns: number) => ns / 1e6;
    const p = (which: SideName, q: number) => ms(percentile(times[which].steps, q));
    const auditP50 = (which: SideName) => ms(percentile(times[which].audits, 50));
    const perSecond = (which: SideName) =>
      (1e9 * (STEPS + 1) * times[which].rounds.length) / times[which].rounds.reduce((a, b) => a + b, 0);
    const vsLocal = (metric: string, median: number, baseline: number, target: number | null): Row => ({
      metric,
      median,
      baseline,
      ratio: median / baseline,
      target,
    });
    const mcpRate = perSecond("line");
    const localRate = perSecond("local");
    return {
      rows: [
        vsLocal(
          "MCP step_done p50 ms (stdio, file store; baseline: in-process)",
          p("line", 50),
          p("local", 50),
          TARGET_P50_MS,
        ),
        vsLocal(
          "MCP step_done p99 ms (stdio, file store; baseline: in-process)",
          p("line", 99),
          p("local", 99),
          null,
        ),
        vsLocal(
          "MCP step_done p50 ms, SDK Client (baseline: in-process)",
          p("sdk", 50),
          p("local", 50),
          null,
        ),
        vsLocal(
          "MCP audit p50 ms (no write: the transport's cost; baseline: in-process)",
          auditP50("line"),
          auditP50("local"),
          null,
        ),
        {
          metric: "MCP sequential tool calls/s (baseline: in-process; ratio = in-process / MCP)",
          median: mcpRate,
          baseline: localRate,
          ratio: localRate / mcpRate,
          target: null,
        },
      ],
      rounds: ROUNDS,
      stepDoneCalls: times.line.steps.length,
      mcpCallsPerSecond: mcpRate,
      inProcessCallsPerSecond: localRate,
    };
  } finally {
    for (const server of servers) await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}
