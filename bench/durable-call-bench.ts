// What one durable call costs as a flow grows, through the real engine and the
// real MCP server, in a temporary directory on the machine's temp file system (real fsync, real
// clock). Three parts:
//
//   1. Along one long flow: a spec with one flow of 10,000 plain function steps (a four-field
//      output contract; each result ~200 bytes), driven through the engine API (createApi) on a
//      FileFlowStore. The wall time of step_done is measured in windows of 50 calls at steps
//      10–59, 976–1,025 and 9,951–10,000, each window on a flow of its own (one engine and one
//      STRATUM_HOME per flow), in interleaved rounds (one call on each flow per round, the order
//      rotated; 5 warm-up rounds first). The flows reach their windows by real calls, except the
//      step-10,000 flow when part 2 is predicted to take more than 120 s: then its state at step
//      9,945 is built with the codec (as bench/store-designs-bench.ts does; byte for byte what real
//      calls leave, but for the recorded durations) and written where the store keeps the flow's
//      file, and the engine loads it like a restarted server. The output says which was done.
//      Ratios: step 1,000 ÷ step 10 and step 10,000 ÷ step 10 (target ≤ 1.2), medians and p99.
//   2. A 10,000-step flow end to end: plan + 10,000 step_done, the sum of the calls' wall times.
//      Only run when the prediction (a straight line through the per-call cost at steps 10–59 and
//      921–970 of the step-1,000 flow, measured while it reaches its window) is at most 120 s;
//      the step-10,000 flow of part 1 is then that run (its calls before the window run back to
//      back). Otherwise the row says "skipped" with the predicted seconds.
//   3. MCP stratum_step_done over stdio: the built bin/stratum-mcp.cjs (STRATUM_HOME in the
//      temporary directory) finishes one 1,000-step flow of the same shape, one step_done per
//      round; in the same rounds, interleaved (order rotated), a no-op tool on an MCP SDK server
//      over stdio (McpServer + StdioServerTransport, one tool answering `{}`, sent the same
//      arguments) and a 600-byte small-file write + fsync in the same directory. 50 warm-up
//      rounds, then 950. Ratio = step_done ÷ (no-op + fsync), for p50 and for p99.
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { composeHost } from "../host/compose";
import { FileFlowStore } from "../host/index";
import type { StratumApi } from "../interpreter/api";
import type { StepRecord } from "../interpreter/base/flow-state";
import { decodeFlowState, encodeFlowState } from "../interpreter/store/codec";
import { wireToPlain } from "../interpreter/wire/encode";
import { makeDict } from "../stdlib/values/dict";
import { fromJsonValue } from "../stdlib/values/json";
import { type LineServer, startLineServer } from "./lib/line-client";
import { median, percentile } from "./lib/stats";
import type { Row } from "./lib/table";

/** Steps of the long flow (parts 1 and 2). */
const LONG_FLOW_STEPS = 10_000;
const WINDOW = 50;
const WARMUP = 5;
/** Where each window's timed calls start (1-based step numbers: call n completes step n). */
const WINDOW_STARTS = [10, 976, LONG_FLOW_STEPS - WINDOW + 1] as const;
/** The step-1,000 flow's calls that give the prediction: steps 10–59 and 921–970. */
const EARLY_FROM = 10;
const LATE_FROM = WINDOW_STARTS[1] - WARMUP - WINDOW;
/** Above this predicted time, the step-10,000 flow is built with the codec and part 2 is skipped. */
const BUDGET_S = 120;
const TARGET_GROWTH = 1.2;

/** Steps of the flow the MCP server finishes (part 3), and its rounds. */
const MCP_STEPS = 1_000;
const MCP_WARMUP = 50;
const MCP_ROUNDS = MCP_STEPS - MCP_WARMUP;
const SMALL_FILE_BYTES = 600;
const TARGET_MCP = 1.3;

const INPUTS = { topic: "durable state for agent workflows" };

/** A spec with one flow of `steps` plain function steps (infer), each with a small output contract. */
export function longFlowSpec(steps: number): string {
  const parts = [
    `version: "0.2"
contracts:
  Result:
    summary: {type: string}
    score: {type: number}
    files_changed: {type: array, items: {type: string}}
    ok: {type: boolean}
functions:
  work:
    mode: infer
    intent: "Carry out one unit of the work and report what changed"
    input:
      topic: {type: string}
    output: Result
flows:
  main:
    input:
      topic: {type: string}
    steps:
`,
  ];
  for (let i = 0; i < steps; i++) {
    parts.push(
      `      - id: s${i}\n        function: work\n        inputs:\n          topic: $.input.topic\n`,
    );
  }
  return parts.join("");
}

/** The result of step `n` (1-based): ~200 bytes of JSON. */
export function stepResult(n: number): Record<string, unknown> {
  return {
    summary: `Step ${n}: checked the module against its contract, two findings fixed, unit and integration tests green.`,
    score: 0.75 + (n % 20) / 100,
    files_changed: [`src/module_${n % 97}.ts`, `test/module_${n % 97}.test.ts`],
    ok: true,
  };
}

function engine(home: string, cwd: string): { api: StratumApi; store: FileFlowStore } {
  const store = new FileFlowStore(home);
  const api = composeHost({ cwd, env: {}, store: { store, where: home } }).api();
  return { api, store };
}

function plain(response: unknown): Record<string, unknown> {
  return (wireToPlain(response as never) ?? {}) as Record<string, unknown>;
}

/** A flow of the long spec on its own engine; `done` calls made so far. */
interface LongFlow {
  readonly api: StratumApi;
  readonly flowId: string;
  done: number;
  /** Wall ms of the plan and of every call so far (none for a flow whose state was built). */
  readonly callMs: number[];
}

async function planLong(api: StratumApi, spec: string): Promise<LongFlow> {
  const t0 = performance.now();
  const answer = plain(await api.plan({ spec, flow: "main", inputs: fromJsonValue(INPUTS) }));
  const ms = performance.now() - t0;
  if (answer.status !== "execute_step")
    throw new Error(`durable bench: plan answered '${String(answer.status)}'`);
  return { api, flowId: String(answer.flow_id), done: 0, callMs: [ms] };
}

/** The flow's next step_done; its wall time in ms (the answer is checked outside the timing). */
async function nextCall(flow: LongFlow): Promise<number> {
  const n = flow.done + 1;
  const args = { flow_id: flow.flowId, step_id: `s${n - 1}`, result: fromJsonValue(stepResult(n)) };
  const t0 = performance.now();
  const answer = await flow.api.stepDone(args);
  const ms = performance.now() - t0;
  const status = plain(answer).status;
  const expected = n === LONG_FLOW_STEPS ? "complete" : "execute_step";
  if (status !== expected) throw new Error(`durable bench: step_done ${n} answered '${String(status)}'`);
  flow.done = n;
  flow.callMs.push(ms);
  return ms;
}

async function runTo(flow: LongFlow, done: number): Promise<void> {
  while (flow.done < done) await nextCall(flow);
}

/**
 * The flow file after `done` steps of the long spec, built with the codec like a real run leaves it
 * (one record, output and attempt per step; plan wrote revision 1, every step_done one more).
 */
function builtFlowText(spec: string, cwd: string, done: number, flowId: string): string {
  const empty = decodeFlowState("{}");
  if (!empty.ok) throw new Error(empty.reason);
  const record = (n: number): StepRecord => ({
    step_id: `s${n - 1}`,
    function_name: "work",
    attempts: 1,
    duration_ms: 15 + (n % 7),
    type: "step",
    round: 0,
    round_start_step_id: null,
    agent: null,
    step_mode: "function",
    child_flow_id: null,
  });
  const steps = Array.from({ length: done }, (_, i) => i + 1);
  return encodeFlowState({
    ...empty.state,
    flow_id: flowId,
    flow_name: "main",
    raw_spec: spec,
    inputs: makeDict(Object.entries(INPUTS)),
    step_outputs: new Map(steps.map((n) => [`s${n - 1}`, fromJsonValue(stepResult(n))])),
    records: steps.map(record),
    attempts: new Map(steps.map((n) => [`s${n - 1}`, 1])),
    current_idx: done,
    cwd,
    revision: done + 1,
    status: "running",
  });
}

/** Writes that flow file where the store keeps the flow's file; its id. */
function writeBuiltFlow(store: FileFlowStore, spec: string, cwd: string, done: number): string {
  const flowId = randomUUID();
  const path = store.locate?.(flowId);
  if (path === undefined) throw new Error("durable bench: the store does not say where a flow is kept");
  fs.mkdirSync(dirname(path), { recursive: true });
  fs.writeFileSync(path, builtFlowText(spec, cwd, done, flowId));
  return flowId;
}

/** Plan + Σ over steps 1..LONG_FLOW_STEPS of a straight line through the two medians, in s. */
function predictSeconds(planMs: number, early: readonly number[], late: readonly number[]): number {
  const x0 = EARLY_FROM + (WINDOW - 1) / 2;
  const x1 = LATE_FROM + (WINDOW - 1) / 2;
  const y0 = median(early);
  const y1 = median(late);
  let total = planMs;
  for (let n = 1; n <= LONG_FLOW_STEPS; n++) total += Math.max(0, y0 + ((y1 - y0) * (n - x0)) / (x1 - x0));
  return total / 1000;
}

interface WindowFigures {
  /** First and last step number of the timed calls. */
  readonly from: number;
  readonly to: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface DurableCallSummary {
  readonly steps: number;
  readonly windowCalls: number;
  readonly warmupRounds: number;
  readonly windows: WindowFigures[];
  /** How the step-10,000 flow reached its window. */
  readonly step10000: "real calls" | "state built with the codec";
  /** Prediction from the step-1,000 flow's calls, in s; and the real total when it ran. */
  readonly endToEnd: { readonly predictedS: number; readonly seconds: number | null };
  readonly mcp: {
    readonly steps: number;
    readonly rounds: number;
    readonly stepDone: { readonly p50Ms: number; readonly p99Ms: number };
    readonly noopTool: { readonly p50Ms: number; readonly p99Ms: number };
    readonly fsync: { readonly p50Ms: number; readonly p99Ms: number };
    readonly fileBytes: number;
  };
}

export interface DurableCallBench {
  readonly rows: Row[];
  readonly summary: DurableCallSummary;
}

interface LongFlowPart {
  readonly rows: Row[];
  readonly windows: WindowFigures[];
  readonly step10000: DurableCallSummary["step10000"];
  readonly endToEnd: DurableCallSummary["endToEnd"];
}

async function benchLongFlow(root: string, cwd: string): Promise<LongFlowPart> {
  const spec = longFlowSpec(LONG_FLOW_STEPS);
  const flows: LongFlow[] = [];
  for (const [k, from] of WINDOW_STARTS.slice(0, 2).entries()) {
    const { api } = engine(join(root, `home-${k}`), cwd);
    const flow = await planLong(api, spec);
    await runTo(flow, from - WARMUP - 1);
    flows.push(flow);
  }
  // The prediction: the step-1,000 flow's calls at steps 10–59 and 921–970 (callMs[0] is the plan).
  const b = flows[1]!;
  const early = b.callMs.slice(EARLY_FROM, EARLY_FROM + WINDOW);
  const late = b.callMs.slice(LATE_FROM, LATE_FROM + WINDOW);
  const predictedS = predictSeconds(b.callMs[0]!, early, late);
  const last = engine(join(root, "home-2"), cwd);
  const lastStart = WINDOW_STARTS[2] - WARMUP - 1;
  let c: LongFlow;
  const real = predictedS <= BUDGET_S;
  const n = (x: number) => x.toLocaleString("en-US");
  process.stderr.write(
    `durable calls: plan + ${n(LONG_FLOW_STEPS)} step_done predicted to take ${n(Math.round(predictedS))} s: ` +
      (real
        ? "running them\n"
        : `over ${BUDGET_S} s, the state at step ${n(lastStart)} is built with the codec\n`),
  );
  if (real) {
    c = await planLong(last.api, spec);
    await runTo(c, lastStart);
  } else {
    c = {
      api: last.api,
      flowId: writeBuiltFlow(last.store, spec, cwd, lastStart),
      done: lastStart,
      callMs: [],
    };
  }
  flows.push(c);

  const samples: number[][] = flows.map(() => []);
  for (let r = -WARMUP; r < WINDOW; r++) {
    for (let k = 0; k < flows.length; k++) {
      const which = (k + r + WARMUP) % flows.length;
      const ms = await nextCall(flows[which]!);
      if (r >= 0) samples[which]!.push(ms);
    }
  }
  if (c.done !== LONG_FLOW_STEPS) throw new Error(`durable bench: the long flow ended at step ${c.done}`);

  const windows = WINDOW_STARTS.map((from, k) => ({
    from,
    to: from + WINDOW - 1,
    p50Ms: median(samples[k]!),
    p99Ms: percentile(samples[k]!, 99),
  }));
  const step10000: LongFlowPart["step10000"] = real ? "real calls" : "state built with the codec";
  const endToEnd = { predictedS, seconds: real ? c.callMs.reduce((a, x) => a + x, 0) / 1000 : null };
  return { rows: longFlowRows(windows, step10000, endToEnd), windows, step10000, endToEnd };
}

function longFlowRows(
  windows: readonly WindowFigures[],
  step10000: LongFlowPart["step10000"],
  endToEnd: LongFlowPart["endToEnd"],
): Row[] {
  const n = (x: number) => x.toLocaleString("en-US");
  const first = windows[0]!;
  const rows: Row[] = [];
  for (const [k, w] of windows.entries()) {
    const at = `steps ${n(w.from)}–${n(w.to)}`;
    const how =
      k === 2
        ? step10000 === "real calls"
          ? ", reached by real calls"
          : `, state at step ${n(w.from - WARMUP - 1)} built with the codec`
        : "";
    const vs = k === 0 ? "" : `; baseline: steps ${n(first.from)}–${n(first.to)}`;
    const target = k === 0 ? {} : { targetRatio: TARGET_GROWTH };
    rows.push({
      metric: `durable calls: engine step_done ms, ${at} of a ${n(LONG_FLOW_STEPS)}-step flow (file store${how}${vs})`,
      median: w.p50Ms,
      baseline: k === 0 ? null : first.p50Ms,
      ratio: k === 0 ? null : w.p50Ms / first.p50Ms,
      target: null,
      ...target,
    });
    rows.push({
      metric: `durable calls: engine step_done p99 ms, ${at}`,
      median: w.p99Ms,
      baseline: k === 0 ? null : first.p99Ms,
      ratio: k === 0 ? null : w.p99Ms / first.p99Ms,
      target: null,
    });
  }
  const predicted = `predicted ${n(Math.round(endToEnd.predictedS))} s`;
  rows.push({
    metric:
      endToEnd.seconds === null
        ? `durable calls: ${n(LONG_FLOW_STEPS)}-step flow end to end s (plan + step_done; skipped: ${predicted})`
        : `durable calls: ${n(LONG_FLOW_STEPS)}-step flow end to end s (plan + step_done; ${predicted})`,
    median: endToEnd.seconds ?? Number.NaN,
    baseline: null,
    ratio: null,
    target: null,
  });
  return rows;
}

/** One tool of an MCP SDK server (McpServer over stdio) that answers `{}`; run with `node -e`. */
const NOOP_SERVER = `
const sdk = (p) => require(require.resolve("@modelcontextprotocol/sdk/" + p, { paths: [process.env.STRATUMC_BENCH_REPO] }));
const { McpServer } = sdk("server/mcp.js");
const { StdioServerTransport } = sdk("server/stdio.js");
const server = new McpServer({ name: "stratumc-bench-noop", version: "0.0.0" });
server.registerTool("noop", { description: "Does nothing" }, async () => ({ content: [{ type: "text", text: "{}" }] }));
server.connect(new StdioServerTransport());
`;

type Server = LineServer;

function startServer(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Server> {
  return startLineServer(args, cwd, env, "stratumc-durable-bench");
}

function writeAndFsync(path: string, bytes: Buffer): void {
  const fd = fs.openSync(path, "w");
  try {
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

async function benchMcpDurable(
  repoDir: string,
  root: string,
  cwd: string,
): Promise<{ rows: Row[]; mcp: DurableCallSummary["mcp"] }> {
  const servers: Server[] = [];
  try {
    const stratum = await startServer([join(repoDir, "bin/stratum-mcp.cjs")], cwd, {
      STRATUM_HOME: join(root, "mcp-home"),
    });
    servers.push(stratum);
    const noop = await startServer(["-e", NOOP_SERVER], cwd, { STRATUMC_BENCH_REPO: repoDir });
    servers.push(noop);
    const plan = await stratum.client.callTool("stratum_plan", {
      spec: longFlowSpec(MCP_STEPS),
      flow: "main",
      inputs: INPUTS,
    });
    if (plan.status !== "execute_step")
      throw new Error(`durable bench: MCP plan answered '${String(plan.status)}'`);
    const flowId = String(plan.flow_id);
    const small = join(root, "small.bin");
    const bytes = Buffer.from(
      JSON.stringify(stepResult(MCP_STEPS)).repeat(4).slice(0, SMALL_FILE_BYTES),
      "utf8",
    );
    let done = 0;
    const ops: { readonly run: () => Promise<void> | void; readonly samples: number[] }[] = [
      {
        run: async () => {
          const n = done + 1;
          const answer = await stratum.client.callTool("stratum_step_done", {
            flow_id: flowId,
            step_id: `s${n - 1}`,
            result: stepResult(n),
          });
          const expected = n === MCP_STEPS ? "complete" : "execute_step";
          if (answer.status !== expected)
            throw new Error(`durable bench: MCP step_done ${n} answered '${String(answer.status)}'`);
          done = n;
        },
        samples: [],
      },
      {
        run: async () => {
          // The same arguments as the step_done, so the same bytes cross the pipe.
          await noop.client.callTool("noop", {
            flow_id: flowId,
            step_id: `s${done}`,
            result: stepResult(done + 1),
          });
        },
        samples: [],
      },
      { run: () => writeAndFsync(small, bytes), samples: [] },
    ];
    for (let r = -MCP_WARMUP; r < MCP_ROUNDS; r++) {
      for (let k = 0; k < ops.length; k++) {
        const op = ops[(k + r + MCP_WARMUP) % ops.length]!;
        const t0 = performance.now();
        await op.run();
        const ms = performance.now() - t0;
        if (r >= 0) op.samples.push(ms);
      }
    }
    const [step, tool, sync] = ops.map((o) => ({
      p50Ms: median(o.samples),
      p99Ms: percentile(o.samples, 99),
    }));
    const mcp = {
      steps: MCP_STEPS,
      rounds: MCP_ROUNDS,
      stepDone: step!,
      noopTool: tool!,
      fsync: sync!,
      fileBytes: bytes.length,
    };
    return { rows: mcpRows(mcp), mcp };
  } finally {
    for (const s of servers) {
      s.child.stdin?.end();
      await s.exited;
    }
  }
}

function mcpRows(m: DurableCallSummary["mcp"]): Row[] {
  const at = `steps ${m.steps - m.rounds + 1}–${m.steps.toLocaleString("en-US")} of a ${m.steps.toLocaleString("en-US")}-step flow`;
  const context = (metric: string, median: number): Row => ({
    metric,
    median,
    baseline: null,
    ratio: null,
    target: null,
  });
  return [
    context("durable calls: MCP SDK server over stdio, no-op tool p50 ms", m.noopTool.p50Ms),
    context("durable calls: MCP SDK server over stdio, no-op tool p99 ms", m.noopTool.p99Ms),
    context(`durable calls: small-file write (${m.fileBytes} B) + fsync p50 ms`, m.fsync.p50Ms),
    context(`durable calls: small-file write (${m.fileBytes} B) + fsync p99 ms`, m.fsync.p99Ms),
    {
      metric: `durable calls: MCP step_done p50 ms over stdio, durable store, ${at} (baseline: no-op + fsync p50)`,
      median: m.stepDone.p50Ms,
      baseline: m.noopTool.p50Ms + m.fsync.p50Ms,
      ratio: m.stepDone.p50Ms / (m.noopTool.p50Ms + m.fsync.p50Ms),
      target: null,
      targetRatio: TARGET_MCP,
    },
    {
      metric: "durable calls: MCP step_done p99 ms (baseline: no-op + fsync p99)",
      median: m.stepDone.p99Ms,
      baseline: m.noopTool.p99Ms + m.fsync.p99Ms,
      ratio: m.stepDone.p99Ms / (m.noopTool.p99Ms + m.fsync.p99Ms),
      target: null,
      targetRatio: TARGET_MCP,
    },
  ];
}

/** Only part 3 (STRATUMC_BENCH_ONLY=durable-mcp): the rows of the MCP step_done ratio. */
export async function benchMcpDurableCalls(repoDir: string): Promise<readonly Row[]> {
  const root = fs.mkdtempSync(join(tmpdir(), "stratumc-durable-mcp-"));
  try {
    return (await benchMcpDurable(repoDir, root, fs.realpathSync(root))).rows;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function benchDurableCalls(repoDir: string): Promise<DurableCallBench> {
  const root = fs.mkdtempSync(join(tmpdir(), "stratumc-durable-calls-"));
  try {
    const cwd = fs.realpathSync(root);
    // The MCP ratio first: the long flow leaves the disk writing back its 6 MB snapshots for a
    // while, which slows the journal's flushes more than the baseline's (bench/lib/settle.ts).
    const { rows, mcp } = await benchMcpDurable(repoDir, root, cwd);
    const long = await benchLongFlow(root, cwd);
    return {
      rows: [...long.rows, ...rows],
      summary: {
        steps: LONG_FLOW_STEPS,
        windowCalls: WINDOW,
        warmupRounds: WARMUP,
        windows: long.windows,
        step10000: long.step10000,
        endToEnd: long.endToEnd,
        mcp,
      },
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The lines printed under the table. */
export function describeDurableCalls(s: DurableCallSummary): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const e = s.endToEnd;
  const reached =
    s.step10000 === "real calls"
      ? "was reached by real calls"
      : `was built with the codec at step ${n(s.windows[2]!.from - s.warmupRounds - 1)} and written to the store`;
  const whole =
    e.seconds === null
      ? `skipped: predicted ${n(Math.round(e.predictedS))} s by real calls (over ${BUDGET_S} s)`
      : `${e.seconds.toFixed(1)} s (predicted ${n(Math.round(e.predictedS))} s)`;
  return (
    `Durable calls: step_done windows of ${s.windowCalls} calls after ${s.warmupRounds} warm-up rounds, one ` +
    `flow per window in interleaved rounds; the step-${n(s.steps)} flow ${reached} (its window ends ` +
    `with the call that completes the flow). ${n(s.steps)}-step flow end to end: ${whole}. MCP: one ` +
    `${n(s.mcp.steps)}-step flow, ${s.mcp.rounds} interleaved rounds after ${MCP_WARMUP} warm-up.\n`
  );
}
