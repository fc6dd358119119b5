// Cold starts of the CLI against `node -e 0`, measured in interleaved rounds in the same run, for
// a small spec (the typical fixture, 110 lines) and a medium one (the longest valid spec of the
// generated corpus, ~300 lines): `stratumc check` as users start it (the bin script, which starts
// the check-only V8 startup snapshot when the build made one), and what each start-up layer buys
// (docs/design/startup.md): the same check from the whole CLI's snapshot instead of the check-only
// one (both started by node directly, so the launcher is not part of the difference), and with
// no snapshot at all (STRATUMC_NO_SNAPSHOT=1); `--version` and `eval` for context. Two rows split the
// check-only snapshot's start into parts: node started from an empty snapshot of its own (the floor
// of any startup snapshot: node reads and deserialises a blob file instead of its built-in heap),
// and the check-only snapshot checking a file that does not exist (deserialising the heap, commander,
// the report: everything but reading, parsing and checking a spec). One row measures what glibc's
// huge pages, which the launcher asks for, save of the check-only snapshot's start.
//
// Every row runs without NODE_EXTRA_CA_CERTS, as most users' shells do: node 20 reads and parses
// each certificate of that bundle as it starts, so with it set (as on the development machine, a
// 220 KB bundle) `node -e 0` costs several times node's own start and every ratio shrinks towards
// 1 (docs/design/startup.md). When it is set here, two more rows measure it: `node -e 0` with it,
// and `stratumc check` with it, whose launcher starts the check-only program without it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Row } from "./lib/table";
import { type ColdCommand, coldStartsMs } from "./lib/timing";
import { generateCorpus } from "./spec-corpus";

const TARGET_COLD_CHECK_RATIO = 1.3;
export const TYPICAL_SPEC = "bench/fixtures/typical.stratum.yaml";

export interface ColdBench {
  readonly rows: Row[];
  /** Whether dist/stratumc.blob existed (bin/stratumc.cjs may still decline it, e.g. with NODE_OPTIONS set). */
  readonly snapshot: boolean;
  readonly runs: number;
  /** The one-minute load average before and after the runs. */
  readonly load: readonly [number, number];
}

/** Builds a startup snapshot that holds nothing of ours; null when this node cannot build one. */
function emptySnapshot(dir: string, env: NodeJS.ProcessEnv): string | null {
  const entry = join(dir, "empty-snapshot.cjs");
  const blob = join(dir, "empty.blob");
  writeFileSync(entry, 'require("node:v8").startupSnapshot.setDeserializeMainFunction(() => {});\n');
  const r = spawnSync(process.execPath, ["--snapshot-blob", blob, "--build-snapshot", entry], {
    env,
    stdio: "ignore",
  });
  return r.status === 0 ? blob : null;
}

/** The longest spec of the generated corpus that is meant to be valid: the "medium" spec. */
function mediumSpec(): { text: string; lines: number } {
  const valid = generateCorpus().filter((s) => s.planted === null);
  const longest = valid.reduce((a, b) => (b.lines > a.lines ? b : a));
  return { text: longest.text, lines: longest.lines };
}

export function benchColdStarts(repoDir: string, runs: number): ColdBench {
  const bin = join(repoDir, "bin/stratumc.cjs");
  const node = process.execPath;
  const checkBlob = join(repoDir, "dist/stratumc-check.blob");
  const fullBlob = join(repoDir, "dist/stratumc.blob");
  const snapshot = existsSync(fullBlob) && existsSync(checkBlob);
  // The blobs record the V8 flags they were built with: started with other flags, node refuses them.
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.STRATUMC_NO_SNAPSHOT;
  delete env.GLIBC_TUNABLES;
  const extraCa = env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_EXTRA_CA_CERTS;
  // What bin/stratumc.cjs adds for the check-only and explore programs: huge pages for the blob's copies.
  const hugePagesEnv = { ...env, GLIBC_TUNABLES: "glibc.malloc.hugetlb=1" };
  const caEnv = extraCa ? { ...env, NODE_EXTRA_CA_CERTS: extraCa } : null;
  const plainEnv = { ...env, STRATUMC_NO_SNAPSHOT: "1" };
  const dir = mkdtempSync(join(tmpdir(), "stratumc-cold-"));
  const medium = mediumSpec();
  const specs = [
    { name: "small spec (110 lines)", path: join(repoDir, TYPICAL_SPEC) },
    { name: `medium spec (${medium.lines} lines)`, path: join(dir, "medium.stratum.yaml") },
  ];
  writeFileSync(specs[1]!.path, medium.text);
  const emptyBlob = snapshot ? emptySnapshot(dir, env) : null;
  const commands: ColdCommand[] = [{ command: node, args: ["-e", "0"], env }];
  if (emptyBlob !== null) commands.push({ command: node, args: ["--snapshot-blob", emptyBlob], env });
  if (snapshot) {
    const missing = join(dir, "missing.stratum.yaml");
    commands.push({
      command: node,
      args: ["--snapshot-blob", checkBlob, "--", "check", missing],
      env,
      status: 2,
    });
  }
  for (const spec of specs) {
    commands.push({ command: bin, args: ["check", spec.path], env });
    commands.push({ command: bin, args: ["check", spec.path], env: plainEnv });
    if (snapshot) {
      const checkFromBlob = ["--snapshot-blob", checkBlob, "--", "check", spec.path];
      commands.push({ command: node, args: checkFromBlob, env });
      if (spec === specs[0]) commands.push({ command: node, args: checkFromBlob, env: hugePagesEnv });
      commands.push({ command: node, args: ["--snapshot-blob", fullBlob, "--", "check", spec.path], env });
    }
  }
  commands.push({ command: bin, args: ["--version"], env });
  commands.push({ command: bin, args: ["eval", "1 + 1"], env });
  if (caEnv !== null) {
    commands.push({ command: node, args: ["-e", "0"], env: caEnv });
    commands.push({ command: bin, args: ["check", specs[0]!.path], env: caEnv });
  }
  let times: number[];
  const loadBefore = loadavg()[0]!;
  try {
    times = coldStartsMs(commands, runs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const nodeMs = times[0]!;
  let next = 1;
  const vsNode = (metric: string, targetRatio?: number, baseline = nodeMs): Row => {
    const ms = times[next++]!;
    return {
      metric,
      median: ms,
      baseline,
      ratio: ms / baseline,
      target: null,
      ...(targetRatio !== undefined ? { targetRatio } : {}),
    };
  };
  const rows: Row[] = [];
  if (emptyBlob !== null)
    rows.push(vsNode("cold start ms: node + an empty startup snapshot (floor of any snapshot)"));
  if (snapshot)
    rows.push(vsNode("cold start ms: node + check-only snapshot, check of a missing file (no spec read)"));
  for (const spec of specs) {
    rows.push(
      vsNode(`cold start ms: stratumc check, ${spec.name} (baseline: node -e 0)`, TARGET_COLD_CHECK_RATIO),
    );
    rows.push(vsNode(`cold start ms: stratumc check, ${spec.name}, STRATUMC_NO_SNAPSHOT=1`));
    if (snapshot) {
      const checkOnly = vsNode(`cold start ms: node + check-only snapshot, check ${spec.name}`);
      rows.push(checkOnly);
      if (spec === specs[0])
        rows.push(
          vsNode(
            `cold start ms: the same with glibc's huge pages, which the launcher asks for (baseline: without)`,
            undefined,
            checkOnly.median,
          ),
        );
      rows.push(vsNode(`cold start ms: node + whole CLI's snapshot, check ${spec.name}`));
    }
  }
  rows.push(vsNode("cold start ms: stratumc --version"));
  rows.push(vsNode("cold start ms: stratumc eval (baseline: node -e 0)"));
  if (caEnv !== null) {
    const caNode = vsNode("cold start ms: node -e 0 with NODE_EXTRA_CA_CERTS set");
    rows.push(caNode);
    rows.push(
      vsNode(
        `cold start ms: stratumc check, ${specs[0]!.name}, NODE_EXTRA_CA_CERTS set (baseline: node -e 0 with it)`,
        undefined,
        caNode.median,
      ),
    );
  }
  return { rows, snapshot, runs, load: [loadBefore, loadavg()[0]!] };
}
