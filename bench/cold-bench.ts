// Cold starts of the CLI against `node -e 0`, measured in interleaved rounds in the same run:
// `stratumc check` of one typical spec as users start it (the bin script, which uses the V8
// startup snapshot when the build made one), the same through the plain bundle, and `--version`
// and `eval` for context.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Row } from "./lib/table";
import { type ColdCommand, coldStartsMs } from "./lib/timing";

export const TARGET_COLD_CHECK_RATIO = 1.3;
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
  const commands: ColdCommand[] = [
    { command: node, args: ["-e", "0"] },
    { command: bin, args: ["check", spec] },
    { command: node, args: [bin, "check", spec] },
    { command: bin, args: ["--version"] },
    { command: bin, args: ["eval", "1 + 1"] },
    { command: bin, args: ["check", spec], env: plainEnv },
  ];
  const [nodeMs, checkMs, plainCheckMs, versionMs, evalMs, launcherPlainMs] = coldStartsMs(
    commands,
    runs,
  ) as [number, number, number, number, number, number];
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
      vsNode("cold start ms: node bin/stratumc.cjs check (plain bundle)", plainCheckMs),
      vsNode("cold start ms: stratumc check, STRATUMC_NO_SNAPSHOT=1", launcherPlainMs),
      vsNode("cold start ms: stratumc --version", versionMs),
      vsNode("cold start ms: stratumc eval (baseline: node -e 0)", evalMs),
    ],
    snapshot: existsSync(join(repoDir, "dist/stratumc.blob")),
    runs,
  };
}
