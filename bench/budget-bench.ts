// The budgets a user feels at the command line, through the built CLI (bin/stratumc.cjs, started as
// users start it, so the startup snapshots are part of what is measured): for each real spec,
// `check FILE`, `check --deep FILE` and `stratumc fuzz FILE` with the default options, one run of
// each per round, in interleaved rounds of the same run. Rows:
//   - `check --deep` over `check`: the median of the per-round differences (deep − check of the
//     same round), target ≤ 150 ms; the baseline is `check`'s median.
//   - `fuzz`: the median of the rounds, target ≤ 300 ms; the baseline is `check` of the same file.
// Three more rows split what the launcher's start settings buy: `fuzz` of the typical spec started
// by node directly from the explore snapshot, without glibc's huge pages, without node's thread pool
// sized to the machine, and without either, each against the start as the launcher makes it.
// The specs: the typical fixture, every examples/*.stratum.yaml that checks without errors, and a
// few of the reference implementation's specs kept as test data. The load average at the start and
// the end goes with the table (describeBudgets): on a shared machine the times are not a quiet
// machine's, and only the differences and ratios compare between runs.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { basename, join } from "node:path";
import { TYPICAL_SPEC } from "./cold-bench";
import { median } from "./lib/stats";
import type { Row } from "./lib/table";
import { type ColdCommand, coldSamplesMs } from "./lib/timing";

const TARGET_DEEP_OVER_CHECK_MS = 150;
const TARGET_FUZZ_MS = 300;

/** Specs of the reference implementation (test data), small ones as its users write them. */
const REFERENCE_SPECS = [
  "test/fuzzer/reference-specs/doc/README-1.stratum.yaml",
  "test/fuzzer/reference-specs/test/mcp.contracts.test_gate_api-2.stratum.yaml",
  "test/fuzzer/reference-specs/test/mcp.integration.test_policy_skip-2.stratum.yaml",
];

export interface BudgetBench {
  readonly rows: Row[];
  readonly rounds: number;
  readonly specs: number;
  readonly loadBefore: number;
  readonly loadAfter: number;
}

function budgetSpecs(repoDir: string): string[] {
  const examples = readdirSync(join(repoDir, "examples"))
    .filter((f) => f.endsWith(".stratum.yaml"))
    .sort()
    .map((f) => join("examples", f));
  return [TYPICAL_SPEC, ...examples, ...REFERENCE_SPECS];
}

/** The command as the bench runs it: its exit status is learnt from one run (findings exit 1). */
function command(repoDir: string, args: readonly string[], env: NodeJS.ProcessEnv): ColdCommand {
  const bin = join(repoDir, "bin/stratumc.cjs");
  const r = spawnSync(bin, args, { stdio: "ignore", env, cwd: repoDir });
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`stratumc ${args.join(" ")} exited with ${r.status ?? r.signal}`);
  return { command: bin, args, env, status: r.status };
}

export function benchBudgets(repoDir: string, rounds: number): BudgetBench {
  // The snapshots record the V8 flags they were built with: started with other flags, node refuses them.
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.STRATUMC_NO_SNAPSHOT;
  const specs = budgetSpecs(repoDir).map((s) => join(repoDir, s));
  const commands = specs.flatMap((s) => [
    command(repoDir, ["check", s], env),
    command(repoDir, ["check", "--deep", s], env),
    command(repoDir, ["fuzz", s], env),
  ]);
  const starts = launcherSettings(repoDir, env);
  const loadBefore = loadavg()[0] ?? 0;
  const samples = coldSamplesMs([...commands, ...starts.map((s) => s.command)], rounds);
  const loadAfter = loadavg()[0] ?? 0;
  const rows: Row[] = [];
  const deepOver: number[] = [];
  const fuzzMs: number[] = [];
  const checkMs: number[] = [];
  specs.forEach((spec, i) => {
    const check = samples[3 * i] ?? [];
    const deep = samples[3 * i + 1] ?? [];
    const fuzz = samples[3 * i + 2] ?? [];
    const c = median(check);
    const over = median(deep.map((d, k) => d - (check[k] ?? Number.NaN)));
    const f = median(fuzz);
    deepOver.push(over);
    fuzzMs.push(f);
    checkMs.push(c);
    const name = basename(spec);
    rows.push({
      metric: `check --deep − check ms, ${name} (baseline: check)`,
      median: over,
      baseline: c,
      ratio: median(deep) / c,
      target: TARGET_DEEP_OVER_CHECK_MS,
    });
    rows.push({
      metric: `fuzz ms, ${name} (baseline: check)`,
      median: f,
      baseline: c,
      ratio: f / c,
      target: TARGET_FUZZ_MS,
    });
  });
  const c = median(checkMs);
  rows.push({
    metric: `check --deep − check ms, median of the ${specs.length} specs`,
    median: median(deepOver),
    baseline: c,
    ratio: null,
    target: TARGET_DEEP_OVER_CHECK_MS,
  });
  rows.push({
    metric: `fuzz ms, median of the ${specs.length} specs (baseline: check)`,
    median: median(fuzzMs),
    baseline: c,
    ratio: median(fuzzMs) / c,
    target: TARGET_FUZZ_MS,
  });
  const asLauncher = median(samples[commands.length] ?? []);
  starts.slice(1).forEach((start, k) => {
    const ms = median(samples[commands.length + 1 + k] ?? []);
    rows.push({
      metric: `fuzz ms, typical spec from the explore snapshot, ${start.name} (baseline: as the launcher starts it)`,
      median: ms,
      baseline: asLauncher,
      ratio: ms / asLauncher,
      target: null,
    });
  });
  return { rows, rounds, specs: specs.length, loadBefore, loadAfter };
}

/**
 * `fuzz` of the typical spec from the explore snapshot started by node directly: first as
 * bin/stratumc.cjs starts it (glibc's huge pages, V8's thread pool sized to the machine), then
 * without each setting and without both. None when the build made no explore snapshot.
 */
function launcherSettings(
  repoDir: string,
  env: NodeJS.ProcessEnv,
): { readonly name: string; readonly command: ColdCommand }[] {
  const blob = join(repoDir, "dist/stratumc-explore.blob");
  if (!existsSync(blob)) return [];
  const plain: NodeJS.ProcessEnv = { ...env };
  delete plain.GLIBC_TUNABLES;
  delete plain.NODE_EXTRA_CA_CERTS;
  const hugePages = { ...plain, GLIBC_TUNABLES: "glibc.malloc.hugetlb=1" };
  const start = (name: string, pool: boolean, e: NodeJS.ProcessEnv) => {
    const spec = join(repoDir, TYPICAL_SPEC);
    const args = [...(pool ? ["--v8-pool-size=0"] : []), "--snapshot-blob", blob, "--", "fuzz", spec];
    const r = spawnSync(process.execPath, args, { stdio: "ignore", env: e });
    if (r.status !== 0 && r.status !== 1)
      throw new Error(`${args.join(" ")} exited with ${r.status ?? r.signal}`);
    return { name, command: { command: process.execPath, args, env: e, status: r.status } };
  };
  return [
    start("as the launcher starts it", true, hugePages),
    start("without huge pages", true, plain),
    start("with node's default thread pool", false, hugePages),
    start("with neither", false, plain),
  ];
}

export function describeBudgets(b: BudgetBench): string {
  return (
    `Budgets: ${b.specs} specs through bin/stratumc.cjs, median of ${b.rounds} interleaved rounds ` +
    `(check, check --deep, fuzz of each spec per round) on ${availableParallelism()} core(s); ` +
    `load average ${b.loadBefore.toFixed(1)} before, ${b.loadAfter.toFixed(1)} after.\n`
  );
}
