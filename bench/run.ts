// `npm run bench`: per-expression medians of parse, check and eval over the corpus, CPython's
// compile()/eval() of the same corpus measured in the same run; in-process checking of the
// generated spec corpus against yaml.parseDocument; cold-start medians of the CLI against
// `node -e 0`; the fuzzer's throughput against a bare replay of the same calls and its time to a
// first finding on the seeded-defect corpus. Prints a table and writes bench/results/latest.json.
// STRATUMC_BENCH_ONLY=fuzz runs only the fuzzer's part and prints it (latest.json is left alone),
// STRATUMC_BENCH_ONLY=size only the big-spec rows (bench/size-bench.ts), STRATUMC_BENCH_ONLY=durable
// only the store designs, the MCP server's memory over 10,000 flows and the per-call cost of durable
// calls along a 10,000-step flow and over MCP; STRATUMC_BENCH_ONLY=durable-calls only the
// last of these (bench/durable-call-bench.ts), STRATUMC_BENCH_ONLY=durable-mcp only its MCP part;
// STRATUMC_BENCH_ONLY=memory only the MCP server's memory over 10,000 flows (bench/server-memory-bench.ts);
// STRATUMC_BENCH_ONLY=ui-big only the page of a 10,000-step flow (bench/ui-big-flow-bench.ts);
// STRATUMC_BENCH_ONLY=otlp only the cost of OTLP tracing with the collector down (bench/otlp-bench.ts),
// STRATUMC_BENCH_ONLY=pg-store only the PostgreSQL flow store against the file store (bench/pg-store-bench.ts),
// STRATUMC_BENCH_ONLY=pg-partition only store operations on one database against three (bench/pg-partition-bench.ts),
// STRATUMC_BENCH_ONLY=pg-scale only the load harness of the shared PostgreSQL store: N servers × M flows
// (bench/pg-scale-bench.ts; STRATUMC_PG_SCALE=50x500 for other points),
// STRATUMC_BENCH_ONLY=ui only the web page's weight, `stratumc ui`'s start (bench/ui-bench.ts) and
// its page of a 10,000-step flow in Chromium (bench/ui-big-flow-bench.ts) and its inbox over
// 10,000 flows (bench/ui-inbox-bench.ts),
// STRATUMC_BENCH_ONLY=control only the control analysis against a whole check (bench/control-bench.ts),
// STRATUMC_BENCH_ONLY=lsp the language server's rows and the control analysis (the editor's budget),
// STRATUMC_BENCH_ONLY=cold only the cold starts of the CLI (bench/cold-bench.ts, 41 rounds),
// STRATUMC_BENCH_ONLY=check only the checker's rows: the generated spec corpus and whole checks of
// the typical and the 1,000-step spec (bench/spec-bench.ts, bench/control-bench.ts).
// STRATUMC_BENCH_ONLY=fuzz-jobs only `stratumc fuzz examples/` with --jobs 1 against --jobs 2
// (bench/fuzz-jobs-bench.ts).
// STRATUMC_BENCH_ONLY=budgets only `check --deep` and `fuzz` of single real specs against `check` of
// the same file, through the built CLI (bench/budget-bench.ts; STRATUMC_BENCH_BUDGET_ROUNDS=n rounds, default 7).
// STRATUMC_BENCH_ONLY=fuzz-server only stratum_fuzz of heavy specs on the built MCP server and the
// latency of other calls meanwhile (bench/fuzz-server-bench.ts).
// STRATUMC_BENCH_ONLY=step-done only what the MCP layer adds to stratum_step_done, in process
// (bench/step-done-path-bench.ts).
// STRATUMC_BENCH_ONLY=pipeline only a 3-stage pipeline over 100 items driven through the MCP server
// in process by a fake agent, against a parallel step of 300 tasks, on the consumer path
// (bench/pipeline-bench.ts) and the server path (bench/pipeline-server-bench.ts).

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { checkExpression } from "../checker/expr/check-expression";
import { bindNames, pathSource, typeEnvironment } from "../cli/eval/case";
import { parseExpression } from "../grammar/parse";
import { nodeFileSystem } from "../host/node-fs";
import { compileExpression } from "../interpreter/eval/compile";
import { evaluate } from "../interpreter/eval/evaluate";
import { parseJson } from "../stdlib/values/json";
import { PyDict } from "../stdlib/values/value";
import { benchBudgets, describeBudgets } from "./budget-bench";
import { benchColdStarts, type ColdBench } from "./cold-bench";
import { benchControl } from "./control-bench";
import { type BenchCase, CORPUS_FILES, loadCorpus } from "./corpus";
import { benchDurableCalls, benchMcpDurableCalls, describeDurableCalls } from "./durable-call-bench";
import { benchFuzz, describeFuzz, type FuzzBench } from "./fuzz-bench";
import { benchFuzzJobs, describeFuzzJobs } from "./fuzz-jobs-bench";
import { benchFuzzServer } from "./fuzz-server-bench";
import { benchInterpreter } from "./interpreter-bench";
import { measureCPython } from "./lib/cpython";
import { settleDisk } from "./lib/settle";
import { median } from "./lib/stats";
import { printTable, type Row } from "./lib/table";
import { DEFAULT_LOOP, nsPerCall } from "./lib/timing";
import { benchLsp } from "./lsp-bench";
import { benchMcp } from "./mcp-bench";
import { benchOtlp } from "./otlp-bench";
import { benchPgClient, describePgClient } from "./pg-client-bench";
import { probePgClientRestarts } from "./pg-client-restarts";
import { benchPgPartition } from "./pg-partition-bench";
import { benchPgScale, describePgScale, pgScaleRows } from "./pg-scale-bench";
import { benchPgStore, describePgStore } from "./pg-store-bench";
import { benchPipeline, describePipeline } from "./pipeline-bench";
import { benchPipelineServer } from "./pipeline-server-bench";
import { benchServerMemory } from "./server-memory-bench";
import { benchSizes, describeSizes, sizeBenchChild } from "./size-bench";
import { benchCorpus } from "./spec-bench";
import { benchStepDonePath } from "./step-done-path-bench";
import { benchStore } from "./store-bench";
import { benchStoreDesigns } from "./store-designs-bench";
import { benchUi } from "./ui-bench";
import { benchUiBigFlow } from "./ui-big-flow-bench";
import { benchUiInbox } from "./ui-inbox-bench";

const TARGET_PARSE_US = 3;
const TARGET_EVAL_US = 0.3;
const COLD_RUNS = 21;
/** Rounds of `stratumc fuzz examples/` per --jobs value: each is a few seconds of the whole command. */
const FUZZ_JOBS_ROUNDS = 5;
/** Rounds of check, check --deep and fuzz of each budget spec (STRATUMC_BENCH_ONLY=budgets: more). */
const BUDGET_ROUNDS = 3;
const BUDGET_ONLY_ROUNDS = 7;

/** More rounds when the cold starts run alone (STRATUMC_BENCH_ONLY=cold): a loaded machine needs them. */
const COLD_ONLY_RUNS = 41;

const distDir = dirname(resolve(process.argv[1] ?? "dist/bench.cjs"));
const repoDir = resolve(distDir, "..");

function findConformanceTable(): string {
  const candidates = [
    process.env.STRATUMC_CONFORMANCE_TSV,
    join(repoDir, "test/conformance/recorded/expressions.tsv"),
  ];
  const found = candidates.find((p): p is string => p !== undefined && existsSync(p));
  if (!found) throw new Error("expressions.tsv not found (set STRATUMC_CONFORMANCE_TSV)");
  return found;
}

function objectOf(json: string | undefined): PyDict | null {
  if (json === undefined) return null;
  const v = parseJson(json);
  return v instanceof PyDict ? v : null;
}

interface CaseTimes {
  readonly expr: string;
  readonly parseNs: number | null;
  readonly checkNs: number | null;
  readonly evalNs: number | null;
}

function measureOurs(c: BenchCase, root: string): CaseTimes {
  const parsed = parseExpression(c.expr);
  if (parsed.expr === null || parsed.diagnostics.length > 0) {
    return { expr: c.expr, parseNs: null, checkNs: null, evalNs: null };
  }
  const parseNs = nsPerCall(() => parseExpression(c.expr));
  const names = bindNames(objectOf(c.bindings));
  const env = typeEnvironment(names);
  const checkNs = nsPerCall(() => checkExpression(c.expr, env));
  const compiled = compileExpression(parsed.expr);
  const options = {
    paths: pathSource(objectOf(c.input), objectOf(c.steps)),
    files: { root, fs: nodeFileSystem },
  };
  let evalNs: number | null = null;
  try {
    evaluate(compiled, names, options);
    evalNs = nsPerCall(() => evaluate(compiled, names, options));
  } catch {
    // Cases that raise are left out of the eval median (an error path is not the common cost).
  }
  return { expr: c.expr, parseNs, checkNs, evalNs };
}

function present(xs: readonly (number | null)[]): number[] {
  return xs.filter((x): x is number => x !== null);
}

/** Median over the cases both sides measured of (ours / CPython). */
function pairedRatio(ours: readonly (number | null)[], theirs: readonly (number | null)[]): number {
  const ratios: number[] = [];
  ours.forEach((o, i) => {
    const t = theirs[i];
    if (o !== null && t !== null && t !== undefined && t > 0) ratios.push(o / t);
  });
  return median(ratios);
}

function fuzzSummary(f: FuzzBench) {
  const { rows: _rows, ...rest } = f;
  return rest;
}

async function fuzzOnly(): Promise<void> {
  process.stderr.write("measuring the fuzzer…\n");
  const fuzz = await benchFuzz(repoDir);
  process.stdout.write(printTable(fuzz.rows));
  process.stdout.write(`\n${describeFuzz(fuzz)}`);
}

function describeServerMemory(rssMbAfter: Record<number, number>): string {
  const points = Object.entries(rssMbAfter).map(
    ([n, mb]) => `${Number(n).toLocaleString("en")}: ${mb.toFixed(1)} MB`,
  );
  return `MCP server RSS after finished flows (median of 9 readings each): ${points.join(", ")}.\n`;
}

function describeCold(cold: ColdBench): string {
  return (
    `Cold starts: median of ${cold.runs} interleaved runs; V8 startup snapshots ` +
    `${cold.snapshot ? "present (dist/stratumc.blob, dist/stratumc-check.blob)" : "absent: the CLI ran the plain bundle"}; ` +
    `load average ${cold.load[0].toFixed(1)} before, ${cold.load[1].toFixed(1)} after.\n`
  );
}

async function main(): Promise<void> {
  if (process.env.STRATUMC_BENCH_CHILD === "size")
    return sizeBenchChild(JSON.parse(process.env.STRATUMC_BENCH_ARGS ?? "[]") as string[]);
  if (process.env.STRATUMC_BENCH_ONLY === "fuzz") return fuzzOnly();
  if (process.env.STRATUMC_BENCH_ONLY === "durable-calls") {
    const calls = await benchDurableCalls(repoDir);
    process.stdout.write(printTable(calls.rows) + describeDurableCalls(calls.summary));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "durable-mcp") {
    process.stdout.write(printTable(await benchMcpDurableCalls(repoDir)));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "otlp") {
    process.stdout.write(printTable(await benchOtlp(repoDir)));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "pg-client") {
    const bench = await benchPgClient(repoDir);
    process.stdout.write(printTable(bench.rows) + describePgClient(bench, await probePgClientRestarts()));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "pg-store") {
    const bench = await benchPgStore(repoDir);
    process.stdout.write(printTable(bench.rows) + describePgStore(bench.summary));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "pg-partition") {
    process.stdout.write(await benchPgPartition());
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "pg-scale") {
    const summary = await benchPgScale(repoDir);
    process.stdout.write(printTable(pgScaleRows(summary)) + describePgScale(summary));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "fuzz-jobs") {
    const jobs = benchFuzzJobs(repoDir, FUZZ_JOBS_ROUNDS);
    process.stdout.write(printTable(jobs.rows) + describeFuzzJobs(jobs));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "budgets") {
    const rounds = Number(process.env.STRATUMC_BENCH_BUDGET_ROUNDS ?? BUDGET_ONLY_ROUNDS);
    const budgets = benchBudgets(repoDir, rounds);
    process.stdout.write(printTable(budgets.rows) + describeBudgets(budgets));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "fuzz-server") {
    process.stdout.write(printTable(await benchFuzzServer(repoDir)));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "step-done") {
    process.stdout.write(printTable(await benchStepDonePath()));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "pipeline") {
    const pipeline = await benchPipeline();
    const pipelineServer = await benchPipelineServer();
    process.stdout.write(printTable([...pipeline.rows, ...pipelineServer]) + describePipeline(pipeline));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "control") {
    process.stdout.write(printTable(benchControl(repoDir)));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "lsp") {
    // The editor's budget: the language server's rows and the control analysis's share of a check.
    const lsp = await benchLsp(repoDir);
    process.stdout.write(printTable([...lsp.rows, ...benchControl(repoDir)]));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "cold") {
    const cold = benchColdStarts(repoDir, COLD_ONLY_RUNS);
    process.stdout.write(printTable(cold.rows) + describeCold(cold));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "check") {
    process.stdout.write(printTable([...benchCorpus().rows, ...benchControl(repoDir)]));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "ui-big") {
    process.stdout.write(printTable(await benchUiBigFlow(repoDir)));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "ui") {
    process.stdout.write(
      printTable([
        ...(await benchUi(repoDir)),
        ...(await benchUiBigFlow(repoDir)),
        ...(await benchUiInbox(repoDir)),
      ]),
    );
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "memory") {
    const memory = await benchServerMemory(repoDir);
    process.stdout.write(printTable(memory.rows) + describeServerMemory(memory.rssMbAfter));
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "durable") {
    // Durable calls first, on a quiet disk: the other two write 10,000 flows each.
    const calls = await benchDurableCalls(repoDir);
    await settleDisk();
    const designs = await benchStoreDesigns();
    const memory = await benchServerMemory(repoDir);
    process.stdout.write(
      printTable([...designs.rows, ...memory.rows, ...calls.rows]) +
        describeServerMemory(memory.rssMbAfter) +
        describeDurableCalls(calls.summary),
    );
    return;
  }
  if (process.env.STRATUMC_BENCH_ONLY === "size") {
    const sizes = benchSizes(repoDir, resolve(process.argv[1] ?? "dist/bench.cjs"));
    process.stdout.write(printTable(sizes.rows) + describeSizes(sizes));
    return;
  }
  const corpus = loadCorpus(findConformanceTable());
  const root = mkdtempSync(join(tmpdir(), "stratumc-bench-"));
  try {
    for (const [path, text] of Object.entries(CORPUS_FILES)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    process.stderr.write(`measuring ${corpus.length} expressions…\n`);
    const ours = corpus.map((c) => measureOurs(c, root));

    // CPython cannot compile `$` paths; its arrays are aligned with `corpus` (null = not measured).
    const pyIndex = corpus.map((c, i) => (c.expr.includes("$") ? -1 : i)).filter((i) => i >= 0);
    const py = measureCPython(
      pyIndex.map((i) => ({ expr: corpus[i]!.expr, bindings: corpus[i]!.bindings })),
      DEFAULT_LOOP,
      root,
    );
    const pyCompile: (number | null)[] = corpus.map(() => null);
    const pyEval: (number | null)[] = corpus.map(() => null);
    pyIndex.forEach((ci, k) => {
      pyCompile[ci] = py.compile[k] ?? null;
      pyEval[ci] = py.eval[k] ?? null;
    });

    process.stderr.write("checking the generated spec corpus…\n");
    const specs = benchCorpus();
    process.stderr.write("measuring cold starts…\n");
    const cold = benchColdStarts(repoDir, COLD_RUNS);
    process.stderr.write("measuring flow transitions and durable writes…\n");
    const interp = await benchInterpreter(repoDir);
    const store = await benchStore(repoDir);
    process.stderr.write("measuring MCP tool calls over stdio…\n");
    const mcp = await benchMcp(repoDir);
    const stepDonePath = await benchStepDonePath();
    process.stderr.write("measuring a pipeline against a parallel step over MCP…\n");
    const pipeline = await benchPipeline();
    const pipelineServer = await benchPipelineServer();
    // Durable calls on a disk no heavy part has written to yet (the store designs, the server's
    // memory and big specs write 10,000 flows or megabytes each): their fsync ratio is measured
    // against a small file's, and writeback left behind slows our journal's flushes more.
    process.stderr.write("measuring durable calls along a 10,000-step flow and over MCP…\n");
    await settleDisk();
    const durableCalls = await benchDurableCalls(repoDir);
    process.stderr.write("measuring the language server…\n");
    const lsp = await benchLsp(repoDir);
    process.stderr.write("measuring the control analysis…\n");
    const control = benchControl(repoDir);
    process.stderr.write("measuring the fuzzer…\n");
    const fuzz = await benchFuzz(repoDir);
    process.stderr.write("measuring stratum_fuzz of heavy specs on the MCP server…\n");
    const fuzzServer = await benchFuzzServer(repoDir);
    process.stderr.write("measuring stratumc fuzz with --jobs 1 and 2…\n");
    const fuzzJobs = benchFuzzJobs(repoDir, FUZZ_JOBS_ROUNDS);
    process.stderr.write("measuring check --deep and fuzz of single specs against check…\n");
    const budgets = benchBudgets(repoDir, BUDGET_ROUNDS);
    process.stderr.write("measuring big specs (memory per input byte, refusal, regexes)…\n");
    const sizes = benchSizes(repoDir, resolve(process.argv[1] ?? "dist/bench.cjs"));
    process.stderr.write("measuring store designs and the MCP server's memory over 10,000 flows…\n");
    await settleDisk();
    const designs = await benchStoreDesigns();
    const serverMemory = await benchServerMemory(repoDir);
    process.stderr.write("measuring OTLP tracing with the collector down…\n");
    const otlp = await benchOtlp(repoDir);
    process.stderr.write("measuring the PostgreSQL flow store against the file store…\n");
    await settleDisk();
    const pgStore = await benchPgStore(repoDir);
    process.stderr.write("measuring the web page of stratumc ui…\n");
    const ui = [
      ...(await benchUi(repoDir)),
      ...(await benchUiBigFlow(repoDir)),
      ...(await benchUiInbox(repoDir)),
    ];

    const parseUs = median(present(ours.map((o) => o.parseNs))) / 1000;
    const checkUs = median(present(ours.map((o) => o.checkNs))) / 1000;
    const evalUs = median(present(ours.map((o) => o.evalNs))) / 1000;
    const rows: Row[] = [
      {
        metric: "parse µs/expr (baseline: CPython compile)",
        median: parseUs,
        baseline: median(present(pyCompile)) / 1000,
        ratio: pairedRatio(
          ours.map((o) => o.parseNs),
          pyCompile,
        ),
        target: TARGET_PARSE_US,
      },
      { metric: "check µs/expr", median: checkUs, baseline: null, ratio: null, target: null },
      {
        metric: "eval µs/expr (baseline: CPython eval)",
        median: evalUs,
        baseline: median(present(pyEval)) / 1000,
        ratio: pairedRatio(
          ours.map((o) => o.evalNs),
          pyEval,
        ),
        target: TARGET_EVAL_US,
      },
      ...specs.rows,
      ...cold.rows,
      ...interp.rows,
      ...store.rows,
      ...mcp.rows,
      ...stepDonePath,
      ...pipeline.rows,
      ...pipelineServer,
      ...lsp.rows,
      ...control,
      ...fuzz.rows,
      ...fuzzServer,
      ...fuzzJobs.rows,
      ...budgets.rows,
      ...sizes.rows,
      ...designs.rows,
      ...serverMemory.rows,
      ...durableCalls.rows,
      ...otlp,
      ...pgStore.rows,
      ...ui,
    ];
    const counts = {
      cases: corpus.length,
      parsed: present(ours.map((o) => o.parseNs)).length,
      evaluated: present(ours.map((o) => o.evalNs)).length,
      cpythonCompiled: present(pyCompile).length,
      cpythonEvaluated: present(pyEval).length,
    };
    process.stdout.write(printTable(rows));
    process.stdout.write(
      `\n${counts.cases} cases: ${counts.parsed} parsed, ${counts.evaluated} evaluated without error; ` +
        `CPython ${py.version}: ${counts.cpythonCompiled} compiled, ${counts.cpythonEvaluated} evaluated. ` +
        "Ratios are medians of per-expression ratios over the cases both sides ran.\n",
    );
    const c = specs.summary;
    process.stdout.write(
      `${c.specs} generated specs (${c.lines.min}–${c.lines.max} lines, median ${c.lines.median}, ` +
        `${c.lines.total} in all; ${c.version01} of version 0.1; ${c.planted} with a planted mistake): ` +
        `${c.valid} valid, ${c.diagnostics} diagnostics; per-spec medians over ${c.rounds} rounds, ` +
        "ratio = median of per-spec ratios; total = median over rounds of one pass over the corpus.\n" +
        describeCold(cold) +
        `Flow transitions: ${interp.memoryPerSecond.toFixed(0)} calls/s in memory, ` +
        `${interp.filePerSecond.toFixed(0)} with the durable file store.\n` +
        describeFuzz(fuzz) +
        describeFuzzJobs(fuzzJobs) +
        describeBudgets(budgets) +
        describeSizes(sizes) +
        describeServerMemory(serverMemory.rssMbAfter) +
        describeDurableCalls(durableCalls.summary) +
        describePipeline(pipeline) +
        describePgStore(pgStore.summary),
    );

    const outDir = join(repoDir, "bench/results");
    mkdirSync(outDir, { recursive: true });
    const results = {
      date: new Date().toISOString(),
      node: process.version,
      python: py.version,
      rows,
      counts,
      specCorpus: specs.summary,
      coldStart: { runs: cold.runs, snapshot: cold.snapshot },
      interpreter: {
        rounds: interp.rounds,
        callsPerRun: interp.callsPerRun,
        memoryPerSecond: interp.memoryPerSecond,
        filePerSecond: interp.filePerSecond,
      },
      storeBench: { flowBytes: store.flowBytes, rounds: store.rounds },
      lsp: { specLines: lsp.lines },
      mcp: {
        rounds: mcp.rounds,
        stepDoneCalls: mcp.stepDoneCalls,
        callsPerSecond: mcp.mcpCallsPerSecond,
        inProcessCallsPerSecond: mcp.inProcessCallsPerSecond,
      },
      fuzz: fuzzSummary(fuzz),
      sizes: sizes.memory,
      serverRssMbAfterFlows: serverMemory.rssMbAfter,
      durableCalls: durableCalls.summary,
      pgStore: pgStore.summary,
      specs: specs.perSpec,
      cases: ours.map((o, i) => ({ ...o, cpythonCompileNs: pyCompile[i], cpythonEvalNs: pyEval[i] })),
    };
    writeFileSync(join(outDir, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
    process.stderr.write(`results written to ${join(outDir, "latest.json")}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
