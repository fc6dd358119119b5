// The fuzzer's speed. Three measurements, all with the fixed seed of `stratumc fuzz`:
//
// 1. Throughput, per spec of examples/: random mode alone (`exploreRandom`, RUNS runs per flow,
//    every flow of the spec in turn, as fuzzSpec's random phase does), timed from the first run to
//    the last. Transitions are the tool calls the fuzzer makes, counted by a wrapper around the
//    transport `stratumc fuzz` uses (`engineTransport`: the engine with its typed events, which the
//    observer reads, and the run's result cache); the stratum_audit calls of the observer are
//    counted apart and are not transitions.
// 2. The cost of a fuzzed transition against a bare interpreter transition measured in the same
//    rounds: the bare side replays, through a fresh `apiTransport(fuzzEngine(files))` (the engine
//    alone: no observer building events, no result cache; no example caches a step), the exact
//    call sequence (audits left out) that the fuzzed exploration made, recorded once in an untimed
//    pass and checked to give the same responses. The engine is deterministic (fixed clock,
//    numbered flow ids), so the replay performs the same transitions with no generation,
//    observation or shrinking. Ratio per spec = fuzzed µs/transition ÷ bare µs/transition. The
//    counting wrapper also times its calls, which splits a fuzzed transition into the engine call,
//    the observer's audits and the rest (generation, decisions, observation). Everything is timed
//    in CPU time (process.cpuUsage: other agents' load on a shared machine changes it far less
//    than wall time); the wrapper's two clock reads per call (about a microsecond) count in the
//    fuzzed side. A further pass explores again and makes each engine call twice: on the
//    exploration's engine, then at once the same call on a second engine in the same state (its
//    answer checked to be the same). Both see the same heap and caches; only the first follows
//    the fuzzer's own work, so the difference is what that work costs the engine's next call
//    (caches it evicts), not the calls themselves.
// 3. Time to the first finding over the seeded-defect corpus (test/fuzzer/corpus, controls left
//    out): (a) random mode alone on the expected finding's flow, the time from the start of
//    exploration to the end of the first run that shows the expected code at the expected
//    flow/step (a per-run timestamp, matched afterwards with the run index of the sighting), and
//    that run's number; codes reported only after all runs (dead steps, never-satisfied ensures and
//    exit criteria: the absence analysis) have no such run and are left out of (a); (b) the
//    whole `fuzzSpec(text, {seed: 42})` (check, exhaustive and random exploration, shrinking,
//    absence analysis), after which the report holds the expected finding (verified).
//
// Every timed side starts from fresh fuzzer state (target, shapes, solver, engine), built untimed;
// the engines of both sides of (2) share one spec cache holding the spec's check, made untimed, as
// every engine of a fuzzSpec session shares the session's one check.
// Rounds interleave the two sides of (2), alternating which goes first; medians over rounds.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { checkSpec } from "../checker/check-spec";
import { FUZZ_DEAD_STEP } from "../checker/fuzz/FUZZ-DEAD-STEP";
import { FUZZ_ENSURE_UNSATISFIABLE } from "../checker/fuzz/FUZZ-ENSURE-UNSATISFIABLE";
import { FUZZ_EXIT_NEVER } from "../checker/fuzz/FUZZ-EXIT-NEVER";
import { fuzzEngine, virtualFiles } from "../fuzzer/engine";
import { exploreRandom } from "../fuzzer/explore/random";
import { DEFAULT_MAX_CALLS, DEFAULT_SEED, fuzzSpec } from "../fuzzer/fuzz-spec";
import type { RunSetup } from "../fuzzer/run/driver";
import { apiTransport, type Plain, type ToolName, type Transport } from "../fuzzer/run/session";
import { Solver } from "../fuzzer/solver";
import { type FuzzTarget, fuzzTarget } from "../fuzzer/target";
import { engineTransport } from "../fuzzer/transport";
import { Shapes } from "../fuzzer/values/shapes";
import { SpecCache } from "../interpreter/index";
import { benchFuzzScaling } from "./fuzz-scaling-bench";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";

const FUZZ_SEED = DEFAULT_SEED;
/** Random runs per flow (fuzzSpec's default). */
const FUZZ_RUNS = 100;
const ROUNDS = 5;
const WARMUP = 1;
/** Rounds of the repeating pass (each call made twice), after the timed rounds. */
const REPEAT_ROUNDS = 3;
/** Repetitions of each corpus measurement (the median is kept). */
const CORPUS_REPS = 3;
/** Findings that only the absence analysis after all runs reports: no single run shows them. */
const AFTER_ALL_RUNS: ReadonlySet<string> = new Set([
  FUZZ_DEAD_STEP.code,
  FUZZ_ENSURE_UNSATISFIABLE.code,
  FUZZ_EXIT_NEVER.code,
]);

interface ExampleFuzz {
  readonly spec: string;
  readonly flows: number;
  readonly runs: number;
  /** Tool calls of one exploration (audits excluded). */
  readonly transitions: number;
  readonly audits: number;
  /** Medians over rounds. */
  readonly exploreMs: number;
  readonly replayMs: number;
  readonly runsPerSecond: number;
  readonly transitionsPerSecond: number;
  readonly fuzzedUsPerTransition: number;
  readonly bareUsPerTransition: number;
  /** Of a fuzzed transition (medians over rounds): the engine call itself, and the observer's audits. */
  readonly engineUsPerTransition: number;
  readonly auditUsPerTransition: number;
  /**
   * Of the repeating pass (medians over its rounds): the exploration's engine call, and the same
   * call made again right after on a second engine.
   */
  readonly firstCallUs: number;
  readonly repeatedCallUs: number;
  /** Median over rounds of the per-round ratio fuzzed / bare. */
  readonly ratio: number;
}

interface DefectFuzz {
  readonly spec: string;
  /** `CODE flow/step:LINE`. */
  readonly expected: string;
  /** Random mode alone: ms to the end of the first run showing the finding; null when no run does. */
  readonly firstFindingMs: number | null;
  /** That run's number (1-based); null likewise. */
  readonly runsToFinding: number | null;
  /** Why (a) has no value: reported after all runs, or no random run showed it. */
  readonly note: string | null;
  /** The whole fuzzSpec(text, {seed}) (median of the repetitions). */
  readonly fuzzSpecMs: number;
}

export interface FuzzBench {
  readonly rows: Row[];
  readonly seed: number;
  readonly runsPerFlow: number;
  readonly rounds: number;
  readonly corpusReps: number;
  readonly examples: ExampleFuzz[];
  readonly corpus: DefectFuzz[];
  /** Medians over the examples. */
  readonly runsPerSecond: number;
  readonly transitionsPerSecond: number;
  readonly ratio: number;
}

interface Call {
  readonly tool: ToolName;
  readonly args: Plain;
}

interface Counts {
  calls: number;
  audits: number;
  /** CPU time inside the transport: the engine calls (transitions) and the observer's audits. */
  callMs: number;
  auditMs: number;
}

/** The process's CPU time (user + system) in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const noCounts = (): Counts => ({ calls: 0, audits: 0, callMs: 0, auditMs: 0 });

/**
 * The fuzzer's state for one exploration, as fuzzSpec builds it (one solver and engine per spec;
 * `specs`, when given, holds the spec already checked, as fuzzSpec shares its check with every
 * engine of the session).
 */
function setupsOf(
  target: FuzzTarget,
  flows: readonly string[],
  wrap: (t: Transport) => Transport,
  specs?: SpecCache,
): RunSetup[] {
  const files = virtualFiles(target.literals.strings);
  const shapes = new Shapes(target.spec, target.literals);
  const solver = new Solver(target.spec, shapes, FUZZ_SEED, files);
  const transport = wrap(engineTransport(files, specs));
  return flows.map((flow) => ({ target, shapes, solver, transport, flow, maxCalls: DEFAULT_MAX_CALLS }));
}

/** A wrapper of `inner` that keeps its start of each run (the engine forgets the run before). */
function wrapping(inner: Transport, call: Transport): Transport {
  return inner.newRun === undefined ? call : Object.assign(call, { newRun: inner.newRun });
}

function counting(inner: Transport, counts: Counts): Transport {
  return wrapping(inner, async (tool, args) => {
    const start = cpuMs();
    const response = await inner(tool, args);
    const ms = cpuMs() - start;
    if (tool === "stratum_audit") {
      counts.audits++;
      counts.auditMs += ms;
    } else {
      counts.calls++;
      counts.callMs += ms;
    }
    return response;
  });
}

function recording(inner: Transport, calls: Call[], responses: string[]): Transport {
  return wrapping(inner, async (tool, args) => {
    const response = await inner(tool, args);
    if (tool !== "stratum_audit") {
      calls.push({ tool, args: structuredClone(args) });
      responses.push(JSON.stringify(response.response));
    }
    return response;
  });
}

export interface Repeats {
  firstMs: number;
  againMs: number;
}

/**
 * Each call (audits aside) is made on `inner`, then the same call at once on `again` (a second
 * engine that has had every earlier call too), each timed; the answers must be the same.
 */
export function repeating(inner: Transport, again: Transport, t: Repeats): Transport {
  const both: Transport = Object.assign(async (tool: ToolName, args: Plain) => inner(tool, args), {
    newRun: () => {
      inner.newRun?.();
      again.newRun?.();
    },
  });
  return wrapping(both, async (tool, args) => {
    if (tool === "stratum_audit") return inner(tool, args);
    // The same arguments, not a copy: copying them between the two calls (or before the first)
    // measurably slows the calls that follow, which is the effect this pass isolates.
    let start = cpuMs();
    const response = await inner(tool, args);
    t.firstMs += cpuMs() - start;
    start = cpuMs();
    const second = await again(tool, args);
    t.againMs += cpuMs() - start;
    if (JSON.stringify(second) !== JSON.stringify(response)) {
      throw new Error(`fuzz bench: the second engine answers ${tool} differently`);
    }
    return response;
  });
}

async function exploreAll(setups: readonly RunSetup[]): Promise<number> {
  let runs = 0;
  for (const setup of setups) {
    const r = await exploreRandom(setup, { seed: FUZZ_SEED, runs: FUZZ_RUNS, deadline: null, now: Date.now });
    runs += r.runs;
  }
  return runs;
}

function targetOf(name: string, text: string): FuzzTarget {
  const target = fuzzTarget(checkSpec(text));
  if (target === null) throw new Error(`fuzz bench: ${name} does not check clean`);
  return target;
}

async function benchExample(name: string, text: string): Promise<ExampleFuzz> {
  const target = targetOf(name, text);
  const flows = [...target.spec.flows.keys()];

  // The untimed recording: the calls (and responses) of one exploration.
  const calls: Call[] = [];
  const responses: string[] = [];
  await exploreAll(setupsOf(target, flows, (t) => recording(t, calls, responses)));
  // The replay must be the same transitions: every response identical.
  const check = apiTransport(fuzzEngine(virtualFiles(target.literals.strings)));
  for (const [i, c] of calls.entries()) {
    if (JSON.stringify((await check(c.tool, c.args)).response) !== responses[i]) {
      throw new Error(`fuzz bench: replaying ${name} diverges at call ${i} (${c.tool})`);
    }
  }

  // Both timed sides find the spec checked, as every engine of a fuzzSpec session does: a
  // transition is the engine's call, not the spec's check (10 % of a replay when each fresh
  // engine checked it again).
  const specs = new SpecCache();
  specs.check(text);
  const exploreMs: number[] = [];
  const replayMs: number[] = [];
  let runs = 0;
  const engineMs: number[] = [];
  const auditMs: number[] = [];
  let counts = noCounts();
  const fuzzed = async () => {
    counts = noCounts();
    const setups = setupsOf(target, flows, (t) => counting(t, counts), specs);
    const start = cpuMs();
    runs = await exploreAll(setups);
    return cpuMs() - start;
  };
  const bare = async () => {
    const transport = apiTransport(fuzzEngine(virtualFiles(target.literals.strings), { specs }));
    const start = cpuMs();
    for (const c of calls) await transport(c.tool, c.args);
    return cpuMs() - start;
  };
  for (let r = -WARMUP; r < ROUNDS; r++) {
    let f: number;
    let b: number;
    if (r % 2 === 0) {
      f = await fuzzed();
      b = await bare();
    } else {
      b = await bare();
      f = await fuzzed();
    }
    if (counts.calls !== calls.length) {
      throw new Error(`fuzz bench: ${name} made ${counts.calls} calls, the recording ${calls.length}`);
    }
    if (r >= 0) {
      exploreMs.push(f);
      replayMs.push(b);
      engineMs.push(counts.callMs);
      auditMs.push(counts.auditMs);
    }
  }
  const firstMs: number[] = [];
  const againMs: number[] = [];
  for (let r = 0; r < REPEAT_ROUNDS; r++) {
    const t: Repeats = { firstMs: 0, againMs: 0 };
    const again = engineTransport(virtualFiles(target.literals.strings), specs);
    await exploreAll(setupsOf(target, flows, (inner) => repeating(inner, again, t), specs));
    firstMs.push(t.firstMs);
    againMs.push(t.againMs);
  }
  const fMs = median(exploreMs);
  const bMs = median(replayMs);
  return {
    spec: name,
    flows: flows.length,
    runs,
    transitions: calls.length,
    audits: counts.audits,
    exploreMs: fMs,
    replayMs: bMs,
    runsPerSecond: (runs * 1000) / fMs,
    transitionsPerSecond: (calls.length * 1000) / fMs,
    fuzzedUsPerTransition: (fMs * 1000) / calls.length,
    bareUsPerTransition: (bMs * 1000) / calls.length,
    engineUsPerTransition: (median(engineMs) * 1000) / calls.length,
    auditUsPerTransition: (median(auditMs) * 1000) / calls.length,
    firstCallUs: (median(firstMs) * 1000) / calls.length,
    repeatedCallUs: (median(againMs) * 1000) / calls.length,
    ratio: median(exploreMs.map((f, i) => f / replayMs[i]!)),
  };
}

interface Defect {
  readonly name: string;
  readonly text: string;
  readonly code: string;
  readonly flow: string;
  readonly step: string | null;
  readonly line: number;
}

/** The defect specs of the corpus (`# expect: CODE flow/step:LINE`); controls (`# expect: none`) are left out. */
export function loadDefects(dir: string): Defect[] {
  const out: Defect[] = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith(".stratum.yaml"))
    .sort()) {
    const text = readFileSync(join(dir, name), "utf8");
    const expect = /^# expect: (\S+) ([^/\s]+)\/(\S+):(\d+)$/m.exec(text);
    if (expect === null) continue;
    const [, code, flow, step, line] = expect as unknown as [string, string, string, string, string];
    out.push({ name, text, code, flow, step: step === "-" ? null : step, line: Number(line) });
  }
  return out;
}

const notation = (d: { code: string; flow: string; step: string | null; line: number }) =>
  `${d.code} ${d.flow}/${d.step ?? "-"}:${d.line}`;

/** Random mode alone on the finding's flow: ms to the end of the first run that shows it, and its number. */
async function firstSighting(d: Defect, target: FuzzTarget): Promise<{ ms: number; run: number } | null> {
  const [setup] = setupsOf(target, [d.flow], (t) => t);
  const ends: number[] = [];
  const start = performance.now();
  const result = await exploreRandom(setup!, {
    seed: FUZZ_SEED,
    runs: FUZZ_RUNS,
    deadline: null,
    now: Date.now,
    onRun: () => ends.push(performance.now()),
  });
  let first: number | null = null;
  for (const s of result.sightings.values()) {
    const o = s.observation;
    if (o.code === d.code && o.flow === d.flow && o.step === d.step && (first === null || s.run < first)) {
      first = s.run;
    }
  }
  return first === null ? null : { ms: ends[first]! - start, run: first + 1 };
}

async function benchDefect(d: Defect): Promise<DefectFuzz> {
  const target = targetOf(d.name, d.text);
  const expected = notation(d);
  const whole: number[] = [];
  const sightings: { ms: number; run: number }[] = [];
  let missing = false;
  for (let i = 0; i < CORPUS_REPS; i++) {
    const start = performance.now();
    const { report } = await fuzzSpec(d.text, { seed: FUZZ_SEED });
    whole.push(performance.now() - start);
    if (!(report?.findings ?? []).some((f) => notation(f) === expected)) {
      throw new Error(`fuzz bench: fuzzSpec of ${d.name} did not report ${expected}`);
    }
    if (AFTER_ALL_RUNS.has(d.code)) continue;
    const s = await firstSighting(d, target);
    if (s === null) missing = true;
    else sightings.push(s);
  }
  const found = !AFTER_ALL_RUNS.has(d.code) && !missing;
  return {
    spec: d.name,
    expected,
    firstFindingMs: found ? median(sightings.map((s) => s.ms)) : null,
    runsToFinding: found ? sightings[0]!.run : null,
    note: AFTER_ALL_RUNS.has(d.code)
      ? "reported after all runs (absence analysis)"
      : found
        ? null
        : `no run of random mode alone shows it in ${FUZZ_RUNS} runs`,
    fuzzSpecMs: median(whole),
  };
}

export async function benchFuzz(repoDir: string): Promise<FuzzBench> {
  const exampleDir = join(repoDir, "examples");
  const examples: ExampleFuzz[] = [];
  for (const name of readdirSync(exampleDir)
    .filter((f) => f.endsWith(".stratum.yaml"))
    .sort()) {
    examples.push(await benchExample(name, readFileSync(join(exampleDir, name), "utf8")));
  }
  const corpus: DefectFuzz[] = [];
  for (const d of loadDefects(join(repoDir, "test/fuzzer/corpus"))) corpus.push(await benchDefect(d));

  const runsPerSecond = median(examples.map((e) => e.runsPerSecond));
  const transitionsPerSecond = median(examples.map((e) => e.transitionsPerSecond));
  const ratio = median(examples.map((e) => e.ratio));
  const seen = corpus.filter((c) => c.firstFindingMs !== null);
  const firstMs = seen.map((c) => c.firstFindingMs!);
  const wholeMs = corpus.map((c) => c.fuzzSpecMs);
  const n = examples.length;
  const rows: Row[] = [
    {
      metric: `fuzz: runs/s, random mode, ${FUZZ_RUNS} runs/flow (median of ${n} examples)`,
      median: runsPerSecond,
      baseline: null,
      ratio: null,
      target: null,
    },
    {
      metric: `fuzz: transitions/s, random mode (median of ${n} examples)`,
      median: transitionsPerSecond,
      baseline: null,
      ratio: null,
      target: null,
    },
    ...examples.map(
      (e): Row => ({
        metric: `fuzz: µs/transition, ${e.spec.replace(/\.stratum\.yaml$/, "")} (baseline: bare replay)`,
        median: e.fuzzedUsPerTransition,
        baseline: e.bareUsPerTransition,
        ratio: e.ratio,
        target: null,
      }),
    ),
    {
      metric: `fuzz: µs/transition, median of ${n} examples (baseline: bare replay)`,
      median: median(examples.map((e) => e.fuzzedUsPerTransition)),
      baseline: median(examples.map((e) => e.bareUsPerTransition)),
      ratio,
      target: null,
    },
    {
      metric: `fuzz: engine µs/call in an exploration, median of ${n} examples (baseline: the call repeated at once)`,
      median: median(examples.map((e) => e.firstCallUs)),
      baseline: median(examples.map((e) => e.repeatedCallUs)),
      ratio: median(examples.map((e) => e.firstCallUs / e.repeatedCallUs)),
      target: null,
    },
    {
      metric: `fuzz: ms to 1st finding, random mode (median of ${seen.length}; baseline: whole fuzzSpec)`,
      median: median(firstMs),
      baseline: median(seen.map((c) => c.fuzzSpecMs)),
      ratio: median(seen.map((c) => c.firstFindingMs! / c.fuzzSpecMs)),
      target: null,
    },
    {
      metric: "fuzz: ms to 1st finding, random mode (max)",
      median: Math.max(...firstMs),
      baseline: null,
      ratio: null,
      target: null,
    },
    {
      metric: "fuzz: runs to 1st finding, random mode (median)",
      median: median(seen.map((c) => c.runsToFinding!)),
      baseline: null,
      ratio: null,
      target: null,
    },
    {
      metric: `fuzz: ms of a whole fuzzSpec, seed ${FUZZ_SEED} (median of ${corpus.length} defects)`,
      median: median(wholeMs),
      baseline: null,
      ratio: null,
      target: null,
    },
    {
      metric: `fuzz: ms of a whole fuzzSpec, seed ${FUZZ_SEED} (max)`,
      median: Math.max(...wholeMs),
      baseline: null,
      ratio: null,
      target: null,
    },
    ...(await benchFuzzScaling()),
  ];
  return {
    rows,
    seed: FUZZ_SEED,
    runsPerFlow: FUZZ_RUNS,
    rounds: ROUNDS,
    corpusReps: CORPUS_REPS,
    examples,
    corpus,
    runsPerSecond,
    transitionsPerSecond,
    ratio,
  };
}

/** The lines printed under the table. */
export function describeFuzz(f: FuzzBench): string {
  const perExample = f.examples
    .map(
      (e) =>
        `${e.spec.replace(/\.stratum\.yaml$/, "")} ${e.runsPerSecond.toFixed(0)} runs/s, ` +
        `${e.transitionsPerSecond.toFixed(0)} transitions/s (${(e.transitions / e.runs).toFixed(1)}/run)`,
    )
    .join("; ");
  const us = (pick: (e: ExampleFuzz) => number) => median(f.examples.map(pick)).toFixed(0);
  const left = new Map<string, string[]>();
  for (const c of f.corpus) {
    if (c.firstFindingMs !== null || c.note === null) continue;
    left.set(c.note, [...(left.get(c.note) ?? []), c.spec.replace(/\.stratum\.yaml$/, "")]);
  }
  return (
    `Fuzzing (seed ${f.seed}, random mode, ${f.runsPerFlow} runs per flow, medians of ${f.rounds} rounds, CPU time): ` +
    `${perExample}. Bare baseline: the same calls replayed on a fresh engine; ratio = median over rounds ` +
    "of fuzzed / bare time, then over examples. A fuzzed transition (medians over examples): " +
    `${us((e) => e.fuzzedUsPerTransition)} µs, of which the engine call ${us((e) => e.engineUsPerTransition)} µs ` +
    `and the observer's audits ${us((e) => e.auditUsPerTransition)} µs. Repeating pass (${REPEAT_ROUNDS} rounds): ` +
    `an engine call after the fuzzer's work ${us((e) => e.firstCallUs)} µs, the same call made again at once on a ` +
    `second engine ${us((e) => e.repeatedCallUs)} µs.\n` +
    `Seeded-defect corpus (${f.corpus.length} defects, controls left out, medians of ${f.corpusReps} ` +
    "repetitions): first finding = random mode alone on the finding's flow, to the end of the first run " +
    "that shows it, against the whole fuzzSpec of the same spec; left out of it: " +
    `${[...left].map(([note, specs]) => `${specs.join(", ")} (${note})`).join("; ")}.\n`
  );
}
