// Only the cold-start rows of the benchmark (bench/cold-bench.ts), printed as a table: quicker than
// `npm run bench` when working on start-up. `node scripts/build.mjs --cold-bench && node dist/cold-bench.cjs [runs]`.
import { dirname, resolve } from "node:path";
import { benchColdStarts } from "./cold-bench";
import { printTable } from "./lib/table";

const repoDir = resolve(dirname(resolve(process.argv[1] ?? "dist/cold-bench.cjs")), "..");
const runs = Number(process.argv[2] ?? "21");
const cold = benchColdStarts(repoDir, runs);
process.stdout.write(printTable(cold.rows));
process.stdout.write(
  `median of ${cold.runs} interleaved runs; snapshot ${cold.snapshot ? "present" : "absent"}\n`,
);
