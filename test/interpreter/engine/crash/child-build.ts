// Bundles crash-child.ts into a temporary directory with esbuild, as the store tests bundle theirs
// (test/interpreter/store/child-bundle.ts, whose spawn and output helpers these tests reuse).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

/** Bundles the child; returns the bundle's path and the temporary directory holding it. */
export async function buildCrashChild(): Promise<{ readonly bundle: string; readonly dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "stratum-engine-child-"));
  const bundle = join(dir, "crash-child.cjs");
  await build({
    entryPoints: [join(__dirname, "crash-child.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    logLevel: "warning",
    define: { STRATUMC_BUNDLED: "true" },
  });
  return { bundle, dir };
}
