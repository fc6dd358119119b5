// Bundles the front ends with esbuild (run by `npm ci` through the `prepare` script).
// Bundling matters for start-up time: unbundled chevrotain alone costs ~250 ms (stack.md).
// `--bench` also bundles the benchmark runner.
import { build } from "esbuild";

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  outExtension: { ".js": ".cjs" },
  define: { STRATUMC_BUNDLED: "true" },
};

const entryPoints = { stratumc: "cli/main.ts" };
if (process.argv.includes("--bench")) entryPoints.bench = "bench/run.ts";

await build({ ...common, entryPoints, outdir: "dist" });
