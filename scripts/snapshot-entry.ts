// Entry point of the V8 startup snapshot of `stratumc` (built by scripts/build.mjs into
// dist/stratumc.blob; bin/stratumc.cjs starts node with it when it is present and valid).
//
// Building the snapshot runs this file once: the static imports initialise every module of the CLI
// (commander, yaml, the checker, the Chevrotain lexer and parser), and a warm-up runs `check` on a
// clean and a broken spec and an `eval` through an injected host, so that the lazily built
// singletons exist and the functions of the common paths are already compiled to bytecode. A
// process started from the snapshot skips all of that (docs/performance.md).
//
// cli/main.ts is required only when the process starts: arguments, environment, working directory,
// standard input and terminals are read at run time, exactly as in the plain bundle
// (test/bench/snapshot.test.ts compares the two).
import { join } from "node:path";
import { startupSnapshot } from "node:v8";
import type { CliHost } from "../cli/host";
import type { Output } from "../cli/output";
import { runCli } from "../cli/program";

declare const STRATUMC_WARMUP_SPEC: string;

const BROKEN_SPEC = `version: "0.2"
contracts:
  Out: {score: {type: number}, tags: {type: array, items: {type: string}}}
functions:
  work: {mode: infer, intent: "Work", input: {}, output: Out, ensure: ["result.scroe > 0.5", "len(result.tags) > '1'"]}
flows:
  main:
    input: {}
    steps:
      - {id: a, function: work, inputs: {x: "$.steps.nope.output"}, depend_on: [b]}
      - {id: a, function: wrok}
`;

const silent: Output = { out: () => undefined, err: () => undefined };

function stdinHost(text: string): CliHost {
  return {
    cwd: "/",
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    readStdin: async () => new TextEncoder().encode(text),
  };
}

async function warmUp(): Promise<void> {
  try {
    for (const spec of [STRATUMC_WARMUP_SPEC, BROKEN_SPEC]) {
      await runCli(["check", "-"], silent, "stratumc", stdinHost(spec));
    }
    await runCli(["eval", "len([x for x in [1, 2] if x > 1]) == 1"], silent, "stratumc", stdinHost(""));
  } catch {
    // A failing warm-up only makes the snapshot slower, never different.
  }
}

if (!startupSnapshot.isBuildingSnapshot()) {
  throw new Error("dist/stratumc-snapshot.cjs is the snapshot entry; run bin/stratumc.cjs");
}
startupSnapshot.setDeserializeMainFunction(() => {
  // A snapshot process gets argv = [node, ...args]; cli/main.ts expects [node, script, ...args].
  process.argv.splice(1, 0, join(__dirname, "..", "bin", "stratumc.cjs"));
  require("../cli/main");
});
// The snapshot is taken once the event loop is empty, that is after the warm-up.
void warmUp();
