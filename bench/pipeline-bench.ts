// What a pipeline step costs over a plain parallel step doing the same agent work, through the MCP
// server on the consumer path (the server path: pipeline-server-bench.ts): stratum_plan, read
// the payload's tasks, a fake agent answers each task deterministically, then one
// stratum_parallel_done with every task's result, until the flow completes.
//
// Same work: a pipeline of 3 stages over 100 elements unfolds into 300 stage tasks, so the baseline
// is a parallel_dispatch step of 300 tasks, not 100: both payloads carry 300 tasks, the agent
// answers 300 times and parallel_done judges 300 task results of the same shape. What is left in
// the ratio is the pipeline's own work: unfolding the stage graph (dependencies, stage settings on
// every task), the element-major aggregate (per-element status and stage results) and the larger
// payload that carries it. The server is the real transport and server in process over in-memory
// streams (as bench/step-done-path-bench.ts), on a journaled store in memory, so neither pipes nor
// disk hide the difference. One round = one flow of each kind, alternating which goes first;
// medians over rounds.

import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeHost } from "../host/compose";
import { type InProcessMcp, inProcessMcp } from "./lib/in-process-mcp";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";
import { JournalInMemory } from "./step-done-path-bench";

const ITEMS = 100;
export const STAGES = 3;
const ROUNDS = 60;
const WARMUP = 5;

const CONTRACTS = `contracts:
  Unit:
    id: {type: string}
    name: {type: string}
    n: {type: integer}
`;

export const PIPELINE_SPEC = `version: "0.3"
${CONTRACTS}flows:
  main:
    input:
      units: {type: array, items: {type: Unit}}
    steps:
      - id: work
        type: pipeline
        source: "$.input.units"
        require: all
        stages:
${Array.from({ length: STAGES }, (_, j) => `          - intent_template: "Stage ${j} of {name}: {prev}"`).join("\n")}
`;

export const PARALLEL_SPEC = `version: "0.3"
${CONTRACTS}flows:
  main:
    input:
      units: {type: array, items: {type: Unit}}
    steps:
      - id: work
        type: parallel_dispatch
        source: "$.input.units"
        require: all
        intent_template: "Work on {name}"
`;

type Json = Record<string, unknown>;

/** The work items, the same shape on both sides; `id` names a parallel step's task (a pipeline names its stage tasks itself). */
export function units(count: number): Json[] {
  return Array.from({ length: count }, (_, n) => ({ id: `u${n}`, name: `src/module-${n}/index.ts`, n }));
}

/**
 * The fake agent: one small result per task, decided by its id and place in the payload. A
 * pipeline's tasks come element-major, each after the stage it depends on, so answering them in
 * payload order respects the stage graph.
 */
function answer(task: Json, index: number): Json {
  const id = String(task.id);
  return { task_id: id, status: "complete", result: { summary: `${id}: done`, score: index % 10 } };
}

export interface PipelineBenchOptions {
  readonly items?: number;
  readonly rounds?: number;
  readonly warmup?: number;
}

interface FlowTimes {
  readonly planNs: number;
  readonly doneNs: number;
  readonly tasks: number;
  readonly payloadBytes: number;
}

/** One flow as the consumer runs it: plan, the agent's answers, parallel_done; checks it completed. */
async function runFlow(mcp: InProcessMcp, spec: string, inputs: Json): Promise<FlowTimes> {
  const t0 = process.hrtime.bigint();
  const payload = await mcp.call("stratum_plan", { spec, flow: "main", inputs });
  const t1 = process.hrtime.bigint();
  if (payload.status !== "parallel_dispatch") {
    throw new Error(`pipeline bench: plan answered '${String(payload.status)}', not 'parallel_dispatch'`);
  }
  const tasks = payload.tasks as Json[];
  // The agent answers by task id: every task must name its own.
  if (
    new Set(tasks.map((t) => (typeof t.id === "string" ? t.id : ""))).size !== tasks.length ||
    tasks.some((t) => typeof t.id !== "string")
  ) {
    throw new Error("pipeline bench: the payload's tasks do not each carry their own id");
  }
  const taskResults = tasks.map(answer);
  const t2 = process.hrtime.bigint();
  const done = await mcp.call("stratum_parallel_done", {
    flow_id: payload.flow_id,
    step_id: payload.step_id,
    task_results: taskResults,
    merge_status: "clean",
  });
  const t3 = process.hrtime.bigint();
  if (done.status !== "complete") {
    throw new Error(`pipeline bench: parallel_done answered '${String(done.status)}', not 'complete'`);
  }
  return {
    planNs: Number(t1 - t0),
    doneNs: Number(t3 - t2),
    tasks: tasks.length,
    payloadBytes: JSON.stringify(payload).length,
  };
}

export interface PipelineBench {
  readonly rows: Row[];
  /** Tasks in each payload (the same on both sides when the work is the same). */
  readonly pipelineTasks: number;
  readonly parallelTasks: number;
  /** The dispatch payload's JSON size on each side. */
  readonly pipelinePayloadBytes: number;
  readonly parallelPayloadBytes: number;
}

export function describePipeline(b: PipelineBench): string {
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  return (
    `Pipeline: ${b.pipelineTasks} stage tasks (payload ${kb(b.pipelinePayloadBytes)}) against ` +
    `${b.parallelTasks} parallel tasks (payload ${kb(b.parallelPayloadBytes)}).\n`
  );
}

export async function benchPipeline(options: PipelineBenchOptions = {}): Promise<PipelineBench> {
  const items = options.items ?? ITEMS;
  const rounds = options.rounds ?? ROUNDS;
  const warmup = options.warmup ?? WARMUP;
  const root = mkdtempSync(join(tmpdir(), "stratumc-pipeline-bench-"));
  const cwd = realpathSync(root);
  const api = composeHost({ cwd, env: {}, store: { store: new JournalInMemory(), where: "memory" } }).api();
  const mcp = await inProcessMcp(api);
  try {
    const sides = {
      pipeline: { spec: PIPELINE_SPEC, inputs: { units: units(items) } },
      parallel: { spec: PARALLEL_SPEC, inputs: { units: units(items * STAGES) } },
    };
    const times = { pipeline: [] as FlowTimes[], parallel: [] as FlowTimes[] };
    for (let r = -warmup; r < rounds; r++) {
      const order = r % 2 === 0 ? (["pipeline", "parallel"] as const) : (["parallel", "pipeline"] as const);
      for (const which of order) {
        const t = await runFlow(mcp, sides[which].spec, sides[which].inputs);
        if (r >= 0) times[which].push(t);
      }
    }
    const ms = (which: "pipeline" | "parallel", part: (t: FlowTimes) => number) =>
      median(times[which].map(part)) / 1e6;
    const row = (metric: string, part: (t: FlowTimes) => number): Row => {
      const ours = ms("pipeline", part);
      const base = ms("parallel", part);
      return { metric, median: ours, baseline: base, ratio: ours / base, target: null };
    };
    const label = `${items}×${STAGES}`;
    return {
      rows: [
        row(
          `pipeline ${label} over MCP ms/flow, plan + parallel_done (in process; baseline: parallel step of ${items * STAGES} tasks)`,
          (t) => t.planNs + t.doneNs,
        ),
        row(
          `pipeline ${label} stratum_plan ms (baseline: the same, ${items * STAGES} tasks)`,
          (t) => t.planNs,
        ),
        row(
          `pipeline ${label} stratum_parallel_done ms (baseline: the same, ${items * STAGES} tasks)`,
          (t) => t.doneNs,
        ),
      ],
      pipelineTasks: times.pipeline[0]?.tasks ?? 0,
      parallelTasks: times.parallel[0]?.tasks ?? 0,
      pipelinePayloadBytes: times.pipeline[0]?.payloadBytes ?? 0,
      parallelPayloadBytes: times.parallel[0]?.payloadBytes ?? 0,
    };
  } finally {
    await mcp.close();
    rmSync(root, { recursive: true, force: true });
  }
}
