// `stratumc test [paths…]`: runs the scenario test files (`*.stratum-test.yaml`) found below the
// paths as `check` finds specs. Exit codes: 0 every test passed, 1 a test failed or a test file has
// errors, 2 usage error, no test file, or an input that cannot be read.
import { type Command, Option } from "commander";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS, EXIT_OK, EXIT_USAGE } from "../exit-codes";
import { styleFor } from "../format/style";
import { formatTestJson } from "./format-json";
import { formatTestJunit } from "./format-junit";
import { formatTestPretty } from "./format-pretty";
import { runTestFiles, type TestRun } from "./run";

const TEST_FORMATS = ["pretty", "json", "junit"] as const;
type TestFormat = (typeof TEST_FORMATS)[number];

export function registerTest(program: Command, ctx: CommandContext): void {
  program
    .command("test")
    .description("run the scenario tests of *.stratum-test.yaml files against their specs")
    .argument("[paths...]", "files, directories (every *.stratum-test.yaml below) or globs", [])
    .addOption(new Option("--format <format>", "output format").choices(TEST_FORMATS).default("pretty"))
    .addHelpText(
      "after",
      "\nExit codes: 0 every test passed, 1 a test failed or a test file has errors, 2 usage error, no test file or unreadable input.",
    )
    .action(async (paths: string[], flags: { readonly format: TestFormat }) => {
      const run = await runTestFiles(paths, ctx.host.cwd);
      switch (flags.format) {
        case "pretty":
          ctx.io.out(formatTestPretty(run, styleFor(ctx.host.env, ctx.host.stdoutIsTTY)));
          break;
        case "json":
          ctx.io.out(formatTestJson(run));
          break;
        case "junit":
          ctx.io.out(formatTestJunit(run));
          break;
      }
      ctx.setExitCode(exitCode(run));
    });
}

export function exitCode(run: TestRun): number {
  if (run.unreadable > 0) return EXIT_USAGE;
  if (run.failed > 0 || run.broken > 0) return EXIT_ERRORS;
  return EXIT_OK;
}
