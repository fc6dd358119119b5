// Timing loops: the median per-call time of a function over several batches (timeit-style), and
// the median wall times of child processes.
import { spawnSync } from "node:child_process";
import { median } from "./stats";

export interface LoopOptions {
  /** Wall time of one batch, in nanoseconds. */
  readonly batchNs: number;
  /** Number of timed batches; the result is their median. */
  readonly batches: number;
}

export const DEFAULT_LOOP: LoopOptions = { batchNs: 400_000, batches: 15 };

/** Keeps results alive so the JIT cannot drop the measured calls. */
let sink: unknown;
/**
 * Exported (and read by nobody) so the stores into `sink` stay observable.
 * @public
 */
export function consumed(): unknown {
  return sink;
}

function timeBatch(fn: () => unknown, n: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink = fn();
  return Number(process.hrtime.bigint() - start);
}

/** Median nanoseconds per call of `fn`. */
export function nsPerCall(fn: () => unknown, options: LoopOptions = DEFAULT_LOOP): number {
  // Warm up and calibrate: double the loop count until a batch takes a quarter of the target.
  let n = 1;
  let t = timeBatch(fn, n);
  while (t < options.batchNs / 4 && n < 1 << 24) {
    n *= 2;
    t = timeBatch(fn, n);
  }
  n = Math.max(1, Math.ceil((n * options.batchNs) / Math.max(t, 1)));
  const samples: number[] = [];
  for (let b = 0; b < options.batches; b++) samples.push(timeBatch(fn, n) / n);
  return median(samples);
}

export interface ColdCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** The exit status the command must end with (default 0). */
  readonly status?: number;
}

/**
 * Median wall-clock milliseconds of each command, run in interleaved rounds (one run of every
 * command per round) so that a slow moment of the machine is shared by all of them.
 */
export function coldStartsMs(commands: readonly ColdCommand[], runs: number): number[] {
  return coldSamplesMs(commands, runs).map(median);
}

/** The wall-clock milliseconds of every round, per command (`coldStartsMs` before the median). */
export function coldSamplesMs(commands: readonly ColdCommand[], runs: number): number[][] {
  const samples: number[][] = commands.map(() => []);
  const run = (c: ColdCommand) => {
    const start = process.hrtime.bigint();
    const r = spawnSync(c.command, c.args, { stdio: "ignore", ...(c.env ? { env: c.env } : {}) });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== (c.status ?? 0))
      throw new Error(`${c.command} ${c.args.join(" ")} exited with ${r.status ?? r.signal}`);
    return ms;
  };
  for (const c of commands) run(c); // warm the file cache
  for (let i = 0; i < runs; i++) {
    commands.forEach((c, k) => {
      samples[k]!.push(run(c));
    });
  }
  return samples;
}
