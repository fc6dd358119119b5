// Entry point of the V8 startup snapshot of `stratumc` (built by scripts/build.mjs into
// dist/stratumc.blob; bin/stratumc.cjs starts node with it when it is present and valid, for every
// command line that the `check` snapshot, scripts/snapshot-check-entry.ts, does not serve).
//
// Building the snapshot runs this file once: the warm-up registers every command (`--help`, which
// loads each command's modules) and runs `check` on a clean and a broken spec and an `eval`
// through an injected host, so that every module is initialised, the lazily built singletons exist
// and the functions of the common paths are already compiled to bytecode. A process started from
// the snapshot skips all of that (docs/design/performance.md).
//
// cli/main.ts is required only when the process starts: arguments, environment, working directory,
// standard input and terminals are read at run time, exactly as in the plain bundle
// (test/bench/snapshot.test.ts compares the two).
import { join } from "node:path";
import { startupSnapshot } from "node:v8";
import { runCli } from "../cli/program";
import { WARMUP_SPECS, warmUp } from "./snapshot-warmup";

if (!startupSnapshot.isBuildingSnapshot()) {
  throw new Error("dist/stratumc-snapshot.cjs is the snapshot entry; run bin/stratumc.cjs");
}
startupSnapshot.setDeserializeMainFunction(() => {
  // A snapshot process gets argv = [node, ...args]; cli/main.ts expects [node, script, ...args].
  process.argv.splice(1, 0, join(__dirname, "..", "bin", "stratumc.cjs"));
  require("../cli/main");
});
// The snapshot is taken once the event loop is empty, that is after the warm-up.
// `fuzz` and `check --deep` are not warmed up here: they start from the explore snapshot
// (scripts/snapshot-explore-entry.ts), and an initialised fuzzer would make this heap a quarter
// larger, which every other command would pay for at each start. Without the explore blob they
// still run from this one, initialising the fuzzer as they go.
void warmUp(runCli, [
  { args: ["--help"], stdin: "" },
  ...WARMUP_SPECS.map((spec) => ({ args: ["check", "-"], stdin: spec })),
  { args: ["eval", "len([x for x in [1, 2] if x > 1]) == 1"], stdin: "" },
]);
