// `stratum_fuzz` on the MCP server with a heavy spec (bench/lib/heavy-specs.ts: one flow of 30
// steps whose every step is a finding, and 1,000 one-step flows) and a 2 s budget, through the
// built stratum-mcp over stdio: how long the answer takes (target: the budget + 1 s), and the
// latency of `tools/list` sent every 100 ms while the fuzz runs, against the same request on the
// same server when it is idle, measured in the same rounds (target: ≤ 50 ms at the worst).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { longFlowSpec, manyFlowsSpec } from "./lib/heavy-specs";
import { type LineServer, startLineServer } from "./lib/line-client";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";

const BUDGET_MS = 2_000;
const ROUNDS = 3;
const PROBE_EVERY_MS = 100;
const TARGET_ANSWER_MS = BUDGET_MS + 1_000;
const TARGET_LIST_MS = 50;

interface Round {
  readonly answerMs: number;
  readonly status: string;
  /** tools/list latencies while the fuzz ran. */
  readonly busy: number[];
  /** tools/list latencies on the idle server, just before. */
  readonly idle: number[];
}

async function listMs(server: LineServer): Promise<number> {
  const started = performance.now();
  await server.client.request("tools/list", {});
  return performance.now() - started;
}

async function fuzzRound(server: LineServer, spec: string): Promise<Round> {
  const idle: number[] = [];
  for (let i = 0; i < 10; i++) idle.push(await listMs(server));
  const busy: number[] = [];
  const started = performance.now();
  let answered = false;
  const answer = server.client.callTool("stratum_fuzz", { spec, time_budget_ms: BUDGET_MS }).then((r) => {
    answered = true;
    return r;
  });
  while (!answered) {
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    if (!answered) busy.push(await listMs(server));
  }
  const r = await answer;
  return { answerMs: performance.now() - started, status: String(r.status), busy, idle };
}

export async function benchFuzzServer(repoDir: string): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), "stratumc-fuzz-server-bench-"));
  const server = await startLineServer(
    [join(repoDir, "bin/stratum-mcp.cjs")],
    root,
    { STRATUM_HOME: join(root, "home") },
    "stratumc-fuzz-server-bench",
  );
  const rows: Row[] = [];
  try {
    for (const [name, spec] of [
      ["one flow of 30 failing steps", longFlowSpec(30)],
      ["1,000 one-step flows", manyFlowsSpec(1_000)],
    ] as const) {
      const rounds: Round[] = [];
      for (let i = 0; i < ROUNDS; i++) rounds.push(await fuzzRound(server, spec));
      const answer = median(rounds.map((r) => r.answerMs));
      const statuses = [...new Set(rounds.map((r) => r.status))].join("/");
      rows.push({
        metric: `MCP stratum_fuzz answer, ${name}, 2 s budget (${statuses})`,
        median: answer,
        baseline: BUDGET_MS,
        ratio: answer / BUDGET_MS,
        target: TARGET_ANSWER_MS,
      });
      const busy = rounds.flatMap((r) => r.busy);
      const idleAll = rounds.flatMap((r) => r.idle);
      const idle = median(idleAll);
      const worst = Math.max(...busy);
      rows.push({
        metric: `MCP tools/list during that fuzz, worst of ${busy.length} (median ${median(busy).toFixed(1)}; idle worst ${Math.max(...idleAll).toFixed(1)})`,
        median: worst,
        baseline: idle,
        ratio: worst / idle,
        target: TARGET_LIST_MS,
      });
    }
  } finally {
    server.child.stdin?.end();
    await server.exited;
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}
