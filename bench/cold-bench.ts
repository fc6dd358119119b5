// Cold starts of the CLI against `node -e 0`, measured in interleaved rounds in the same run:
// `stratumc check` of one typical spec as users start it (the bin script, which uses the V8
// startup snapshot when the build made one), the same through the resident checker
// (STRATUMC_DAEMON=1, the daemon started before the timed runs) and when the daemon is missing
// (the client's fallback), the plain bundle, and `--version` and `eval` for context.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Row } from "./lib/table";
import { type ColdCommand, coldStartsMs } from "./lib/timing";

const TARGET_COLD_CHECK_RATIO = 1.3;
export const TYPICAL_SPEC = "bench/fixtures/typical.stratum.yaml";

export interface ColdBench {
  readonly rows: Row[];
  /** Whether dist/stratumc.blob existed (bin/stratumc.cjs may still decline it, e.g. with NODE_OPTIONS set). */
  readonly snapshot: boolean;
  readonly runs: number;
}

export function benchColdStarts(repoDir: string, runs: number): ColdBench {
  const bin = join(repoDir, "bin/stratumc.cjs");
  const spec = join(repoDir, TYPICAL_SPEC);
  const node = process.execPath;
  const plainEnv = { ...process.env, STRATUMC_NO_SNAPSHOT: "1" };
  // A daemon of its own, in a private directory of the benchmark's.
  const daemonDir = mkdtempSync(join(tmpdir(), "stratumc-bench-daemon-"));
  const daemonEnv = { ...process.env, STRATUMC_DAEMON: "1", STRATUMC_DAEMON_DIR: daemonDir };
  const noDaemonEnv = { ...daemonEnv, STRATUMC_DAEMON: "use", STRATUMC_DAEMON_DIR: join(daemonDir, "none") };
  const started = spawnSync(bin, ["daemon", "start"], { env: daemonEnv, encoding: "utf8" });
  if (started.status !== 0) throw new Error(`stratumc daemon start failed: ${started.stderr}`);
  const commands: ColdCommand[] = [
    { command: node, args: ["-e", "0"] },
    { command: bin, args: ["check", spec] },
    { command: bin, args: ["check", spec], env: daemonEnv },
    { command: bin, args: ["check", spec], env: noDaemonEnv },
    { command: node, args: [bin, "check", spec] },
    { command: bin, args: ["--version"] },
    { command: bin, args: ["eval", "1 + 1"] },
    { command: bin, args: ["check", spec], env: plainEnv },
  ];
  let times: number[];
  try {
    times = coldStartsMs(commands, runs);
  } finally {
    spawnSync(bin, ["daemon", "stop"], { env: daemonEnv });
    rmSync(daemonDir, { recursive: true, force: true });
  }
  const [nodeMs, checkMs, daemonMs, noDaemonMs, plainCheckMs, versionMs, evalMs, launcherPlainMs] = times as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const vsNode = (metric: string, ms: number, targetRatio?: number): Row => ({
    metric,
    median: ms,
    baseline: nodeMs,
    ratio: ms / nodeMs,
    target: null,
    ...(targetRatio !== undefined ? { targetRatio } : {}),
  });
  return {
    rows: [
      vsNode(
        "cold start ms: stratumc check typical spec (baseline: node -e 0)",
        checkMs,
        TARGET_COLD_CHECK_RATIO,
      ),
      vsNode(
        "cold start ms: stratumc check, STRATUMC_DAEMON=1, daemon running",
        daemonMs,
        TARGET_COLD_CHECK_RATIO,
      ),
      vsNode("cold start ms: stratumc check, STRATUMC_DAEMON=use, no daemon (fallback)", noDaemonMs),
      vsNode("cold start ms: node bin/stratumc.cjs check (plain bundle)", plainCheckMs),
      vsNode("cold start ms: stratumc check, STRATUMC_NO_SNAPSHOT=1", launcherPlainMs),
      vsNode("cold start ms: stratumc --version", versionMs),
      vsNode("cold start ms: stratumc eval (baseline: node -e 0)", evalMs),
    ],
    snapshot: existsSync(join(repoDir, "dist/stratumc.blob")),
    runs,
  };
}
