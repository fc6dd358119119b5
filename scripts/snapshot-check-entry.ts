// Entry point of the `check` startup snapshot (built by scripts/build.mjs into
// dist/stratumc-check.blob): the check-only program of cli/main-check.ts, which is what a
// pre-commit hook runs. bin/stratumc.cjs starts it for `stratumc check …` and `stratumc validate …`
// (without --deep); its heap holds the checker, commander with `check` and `validate`, and nothing
// else, so it deserialises faster than the whole CLI's (docs/design/performance.md).
//
// The warm-up checks a clean and a broken spec and validates one, through an injected host. Any
// command line the check-only program does not serve is handed to the plain bundle
// (dist/stratumc.cjs), which answers as always.
import { createRequire } from "node:module";
import { join } from "node:path";
import { startupSnapshot } from "node:v8";
import { CHECK_COMMANDS } from "../cli/check-commands";
import { startCheckCli } from "../cli/main-check";
import { runCliWith } from "../cli/run-cli";
import { WARMUP_SPECS, warmUp } from "./snapshot-warmup";

if (!startupSnapshot.isBuildingSnapshot()) {
  throw new Error("dist/stratumc-check-snapshot.cjs is a snapshot entry; run bin/stratumc.cjs");
}
startupSnapshot.setDeserializeMainFunction(() => {
  // A snapshot process gets argv = [node, ...args]; the CLI expects [node, script, ...args].
  const bin = join(__dirname, "..", "bin", "stratumc.cjs");
  process.argv.splice(1, 0, bin);
  startCheckCli(() => createRequire(bin)("../dist/stratumc.cjs"));
});
// The snapshot is taken once the event loop is empty, that is after the warm-up.
void warmUp(
  (args, io, name, host) => runCliWith(CHECK_COMMANDS, args, io, name, host),
  [
    ...WARMUP_SPECS.map((spec) => ({ args: ["check", "-"], stdin: spec })),
    { args: ["validate", "-"], stdin: WARMUP_SPECS[1] ?? "" },
  ],
);
