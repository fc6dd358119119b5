// `stratumc fuzz examples/` through the built CLI with --jobs 1 and --jobs 2 (and the cores, when
// the machine has more than 2), in interleaved rounds of the same run: the wall time of the whole
// command, the worker threads' start included. Ratio: --jobs N ÷ --jobs 1 (below 1 is a speed-up).
// The load average at the start and the end is in the metric's description (describeFuzzJobs): on
// a shared machine the other processes take their part of the cores.
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import type { Row } from "./lib/table";
import { type ColdCommand, coldStartsMs } from "./lib/timing";

export interface FuzzJobsBench {
  readonly rows: Row[];
  readonly rounds: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
}

export function benchFuzzJobs(repoDir: string, rounds: number): FuzzJobsBench {
  const bin = join(repoDir, "bin/stratumc.cjs");
  const cores = availableParallelism();
  const jobs = [...new Set([1, 2, cores])];
  // The examples include broken specs on purpose: the command exits 1.
  const commands: ColdCommand[] = jobs.map((j) => ({
    command: process.execPath,
    args: [bin, "fuzz", join(repoDir, "examples"), "--jobs", String(j), "--format", "json"],
    status: 1,
  }));
  const loadBefore = loadavg()[0] ?? 0;
  const times = coldStartsMs(commands, rounds);
  const loadAfter = loadavg()[0] ?? 0;
  const one = times[0] ?? Number.NaN;
  const rows: Row[] = jobs.map((j, k) => ({
    metric: `stratumc fuzz examples/ --jobs ${j} (ms, vs --jobs 1)`,
    median: times[k] ?? Number.NaN,
    baseline: j === 1 ? null : one,
    ratio: j === 1 ? null : (times[k] ?? Number.NaN) / one,
    target: null,
  }));
  return { rows, rounds, loadBefore, loadAfter };
}

export function describeFuzzJobs(b: FuzzJobsBench): string {
  return (
    `fuzz --jobs: median of ${b.rounds} interleaved rounds on ${availableParallelism()} core(s); ` +
    `load average ${b.loadBefore.toFixed(1)} before, ${b.loadAfter.toFixed(1)} after.\n`
  );
}
