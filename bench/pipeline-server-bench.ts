// What a pipeline step costs over a plain parallel step doing the same agent work on the SERVER
// path (docs/reference/runtime.md §4.8, "Server-side dispatch"): stratum_plan, stratum_parallel_start,
// the executor running every task through an in-memory fake agent (an answer on the next turn of
// the event loop, no process), then stratum_parallel_poll settling the step, until the flow
// completes. A pipeline of 3 stages over 100 elements runs 300 stage tasks, so the baseline is a
// parallel step of 300 tasks: both sides run 300 agent tasks and write 600 task entries (running,
// then complete), max_concurrent 3 each. What is left in the ratio is the pipeline's own work: the
// stage graph waited on, each stage's prompt and routing decision, the element-scoped `require`
// after every task and the element aggregate at poll. The MCP transport and server run in process
// over in-memory streams on a journaled store in memory (as bench/pipeline-bench.ts); one round is
// one flow of each kind, alternating which goes first; medians over rounds.

import { randomUUID } from "node:crypto";
import { nodeWorkspace } from "../host/node-workspace";
import { createEngine, type EngineApi } from "../interpreter/engine/create-api";
import type { ParallelTaskOutcome, ParallelTaskRequest } from "../interpreter/flow/parallel-runner";
import { fromJsonValue } from "../stdlib/values/json";
import { type InProcessMcp, inProcessMcp } from "./lib/in-process-mcp";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";
import { PARALLEL_SPEC, PIPELINE_SPEC, STAGES, units } from "./pipeline-bench";
import { JournalInMemory } from "./step-done-path-bench";

const ITEMS = 100;
const ROUNDS = 20;
const WARMUP = 3;

type Json = Record<string, unknown>;

/** The fake agent: a small result per task on the next turn of the event loop. */
class FakeAgent {
  runs = 0;
  async runTask(request: ParallelTaskRequest): Promise<ParallelTaskOutcome> {
    this.runs += 1;
    await new Promise((r) => setImmediate(r));
    return { ok: true, result: fromJsonValue({ summary: `${request.taskId}: done`, score: this.runs % 10 }) };
  }
}

/** One flow run by the server: plan, start, the executor to its end, the poll that settles it. */
async function runFlow(mcp: InProcessMcp, api: EngineApi, spec: string, inputs: Json): Promise<number> {
  const t0 = process.hrtime.bigint();
  const payload = await mcp.call("stratum_plan", { spec, flow: "main", inputs });
  const args = { flow_id: payload.flow_id, step_id: payload.step_id };
  const started = await mcp.call("stratum_parallel_start", args);
  if (started.status !== "started") {
    throw new Error(`pipeline server bench: start answered ${JSON.stringify(started).slice(0, 300)}`);
  }
  await api.parallelSettled();
  const poll = await mcp.call("stratum_parallel_poll", args);
  const t1 = process.hrtime.bigint();
  const outcome = poll.outcome as Json | null;
  if (outcome?.status !== "complete") {
    throw new Error(`pipeline server bench: poll's outcome is ${JSON.stringify(outcome).slice(0, 300)}`);
  }
  return Number(t1 - t0);
}

export interface PipelineServerBenchOptions {
  readonly items?: number;
  readonly rounds?: number;
  readonly warmup?: number;
}

export async function benchPipelineServer(options: PipelineServerBenchOptions = {}): Promise<Row[]> {
  const items = options.items ?? ITEMS;
  const rounds = options.rounds ?? ROUNDS;
  const warmup = options.warmup ?? WARMUP;
  const agent = new FakeAgent();
  const api = createEngine({
    store: new JournalInMemory(),
    clock: { wallMs: () => Date.now(), monoMs: () => performance.now() },
    ids: { newFlowId: () => randomUUID() },
    cwd: process.cwd(),
    files: () => null,
    workspace: nodeWorkspace,
    parallelRunner: agent,
  });
  const mcp = await inProcessMcp(api);
  try {
    const none = (spec: string) => spec.replace("require: all", "require: all\n        isolation: none");
    const sides = {
      pipeline: { spec: none(PIPELINE_SPEC), inputs: { units: units(items) } },
      parallel: { spec: none(PARALLEL_SPEC), inputs: { units: units(items * STAGES) } },
    };
    const times = { pipeline: [] as number[], parallel: [] as number[] };
    for (let r = -warmup; r < rounds; r++) {
      const order = r % 2 === 0 ? (["pipeline", "parallel"] as const) : (["parallel", "pipeline"] as const);
      for (const which of order) {
        const before = agent.runs;
        const ns = await runFlow(mcp, api, sides[which].spec, sides[which].inputs);
        if (agent.runs - before !== items * STAGES) {
          throw new Error(`pipeline server bench: ${which} ran ${agent.runs - before} agent tasks`);
        }
        if (r >= 0) times[which].push(ns);
      }
    }
    const ours = median(times.pipeline) / 1e6;
    const base = median(times.parallel) / 1e6;
    return [
      {
        metric: `pipeline ${items}×${STAGES} server path ms/flow, plan + start + executor + poll (in process, fake agent; baseline: parallel step of ${items * STAGES} tasks)`,
        median: ours,
        baseline: base,
        ratio: ours / base,
        target: null,
      },
    ];
  } finally {
    await mcp.close();
  }
}
