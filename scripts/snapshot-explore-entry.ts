// Entry point of the `explore` startup snapshot (built by scripts/build.mjs into
// dist/stratumc-explore.blob): `check --deep` and `fuzz`, the commands that run the fuzzer, with
// `check` and `validate` (cli/explore-commands.ts). bin/stratumc.cjs starts it for those command
// lines; its heap holds the checker and the fuzzer and none of the other commands, so it
// deserialises faster than the whole CLI's (docs/design/startup.md).
//
// The warm-up checks a clean and a broken spec, fuzzes both for a few runs and runs `check --deep`,
// through an injected host. Any command line the explore program does not serve is handed to the
// plain bundle (dist/stratumc.cjs), which answers as always.
import { createRequire } from "node:module";
import { join } from "node:path";
import { startupSnapshot } from "node:v8";
import { EXPLORE_COMMANDS, exploreServes } from "../cli/explore-commands";
import { startPartialCli } from "../cli/main-check";
import { runCliWith } from "../cli/run-cli";
import { WARMUP_SPECS, warmUp } from "./snapshot-warmup";

if (!startupSnapshot.isBuildingSnapshot()) {
  throw new Error("dist/stratumc-explore-snapshot.cjs is a snapshot entry; run bin/stratumc.cjs");
}
startupSnapshot.setDeserializeMainFunction(() => {
  // A snapshot process gets argv = [node, ...args]; the CLI expects [node, script, ...args].
  const bin = join(__dirname, "..", "bin", "stratumc.cjs");
  process.argv.splice(1, 0, bin);
  startPartialCli(EXPLORE_COMMANDS, exploreServes, () => createRequire(bin)("../dist/stratumc.cjs"));
});
// The snapshot is taken once the event loop is empty, that is after the warm-up. What the warm-up
// explored is not kept: each fuzz builds its own.
void warmUp(
  (args, io, name, host) => runCliWith(EXPLORE_COMMANDS, args, io, name, host),
  [
    ...WARMUP_SPECS.map((spec) => ({ args: ["check", "-"], stdin: spec })),
    ...WARMUP_SPECS.map((spec) => ({ args: ["fuzz", "--runs", "5", "-"], stdin: spec })),
    { args: ["check", "--deep", "-"], stdin: WARMUP_SPECS[0] ?? "" },
  ],
);
