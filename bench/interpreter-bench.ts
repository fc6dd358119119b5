// Flow transitions of the engine: one run = stratum_plan of the typical spec plus the
// stratum_step_done chain that finishes it (plan → implement → review → the flag-policy gate
// auto-approves → complete: 4 calls). Measured over the in-memory store and over the durable file
// store (lock, revision check, flushed temporary file, rename, directory flush per write), in
// interleaved rounds so both see the same machine state. Medians over runs of the plan time and of
// the mean step_done time; ratio = file / memory.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeHost } from "../host/compose";
import { FileFlowStore } from "../host/index";
import type { StratumApi } from "../interpreter/api";
import { MemoryStore } from "../interpreter/store/memory-store";
import type { FlowStore } from "../interpreter/store/store";
import { wireToPlain } from "../interpreter/wire/encode";
import { parseJson } from "../stdlib/values/json";
import type { PyValue } from "../stdlib/values/value";
import { TYPICAL_SPEC } from "./cold-bench";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";

const ROUNDS = 150;
const WARMUP = 15;

const INPUTS = '{"feature": "Export reports as CSV", "fast": false}';
/** step id → a result that passes its contract, output_schema and ensure. */
const RESULTS: readonly (readonly [string, string])[] = [
  [
    "plan",
    '{"summary": "Two tasks", "risk": "low", "tasks": [{"id": 1, "title": "Writer", "files": ["src/csv.ts"]}, {"id": 2, "title": "Route", "files": ["src/routes.ts"]}]}',
  ],
  [
    "implement",
    '{"diff": "--- a/src/csv.ts\\n+++ b/src/csv.ts", "tests_pass": true, "changed": ["src/csv.ts"]}',
  ],
  [
    "review",
    '{"approved": true, "score": 0.92, "findings": [{"file": "src/csv.ts", "line": 3, "severity": "minor"}]}',
  ],
];

export interface InterpreterBench {
  readonly rows: Row[];
  readonly callsPerRun: number;
  readonly rounds: number;
  /** Calls (transitions) per second over the whole chain: 1 / median of the runs' mean call time. */
  readonly memoryPerSecond: number;
  readonly filePerSecond: number;
}

function engine(store: FlowStore, cwd: string): StratumApi {
  return composeHost({ cwd, env: {}, store: { store, where: cwd } }).api();
}

function statusOf(response: unknown): string {
  const plain = wireToPlain(response as never) as { status?: unknown } | null;
  return String(plain?.status);
}

interface RunTimes {
  readonly planNs: number;
  /** Mean of the run's step_done calls. */
  readonly stepNs: number;
  /** Mean over all calls of the run. */
  readonly callNs: number;
}

/** One complete run of the flow. */
async function runFlow(
  api: StratumApi,
  spec: string,
  inputs: PyValue,
  results: readonly [string, PyValue][],
): Promise<RunTimes> {
  const start = process.hrtime.bigint();
  const plan = wireToPlain(await api.plan({ spec, flow: "feature-build", inputs })) as { flow_id?: unknown };
  const planned = process.hrtime.bigint();
  const flowId = String(plan.flow_id);
  let last = "";
  for (const [stepId, result] of results) {
    last = statusOf(await api.stepDone({ flow_id: flowId, step_id: stepId, result }));
  }
  const end = process.hrtime.bigint();
  if (last !== "complete")
    throw new Error(`interpreter bench: the typical flow ended with '${last}', not 'complete'`);
  return {
    planNs: Number(planned - start),
    stepNs: Number(end - planned) / results.length,
    callNs: Number(end - start) / (results.length + 1),
  };
}

export async function benchInterpreter(repoDir: string): Promise<InterpreterBench> {
  const spec = readFileSync(join(repoDir, TYPICAL_SPEC), "utf8");
  const inputs = parseJson(INPUTS);
  const results = RESULTS.map(([id, json]) => [id, parseJson(json)] as [string, PyValue]);
  const home = mkdtempSync(join(tmpdir(), "stratumc-interp-bench-"));
  try {
    const cwd = realpathSync(home);
    const memory = engine(new MemoryStore(), cwd);
    const durable = engine(new FileFlowStore(join(home, "state")), cwd);
    const memoryRuns: RunTimes[] = [];
    const fileRuns: RunTimes[] = [];
    for (let r = -WARMUP; r < ROUNDS; r++) {
      // Alternate which store goes first so neither always runs on a warmer cache.
      const order = r % 2 === 0 ? [true, false] : [false, true];
      for (const inMemory of order) {
        const times = await runFlow(inMemory ? memory : durable, spec, inputs, results);
        if (r >= 0) (inMemory ? memoryRuns : fileRuns).push(times);
      }
    }
    const us = (runs: readonly RunTimes[], pick: (t: RunTimes) => number) => median(runs.map(pick)) / 1000;
    const row = (metric: string, pick: (t: RunTimes) => number): Row[] => {
      const m = us(memoryRuns, pick);
      const f = us(fileRuns, pick);
      return [
        { metric: `${metric} µs (memory store)`, median: m, baseline: null, ratio: null, target: null },
        {
          metric: `${metric} µs (file store; baseline: memory)`,
          median: f,
          baseline: m,
          ratio: f / m,
          target: null,
        },
      ];
    };
    return {
      rows: [...row("flow plan", (t) => t.planNs), ...row("flow step_done", (t) => t.stepNs)],
      callsPerRun: results.length + 1,
      rounds: ROUNDS,
      memoryPerSecond: 1e6 / us(memoryRuns, (t) => t.callNs),
      filePerSecond: 1e6 / us(fileRuns, (t) => t.callNs),
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
