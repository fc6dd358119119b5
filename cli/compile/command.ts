// `stratumc compile <dir> [--output FILE] [--flow NAME]` (docs/reference/runtime.md §21.2): the same outputs and
// exit codes as `stratum-mcp compile` (cli/mcp-commands/ reads that binary's words as the
// reference does), with commander's usual argument handling: a missing directory or an unknown
// option is a usage error (exit 2) like every other stratumc command, and `--output=FILE` works.
import type { Command } from "commander";
import type { CommandContext } from "../command-context";
import { runCompile } from "./run-compile";

interface CompileOptions {
  readonly output?: string;
  readonly flow: string;
}

export function registerCompile(program: Command, ctx: CommandContext): void {
  program
    .command("compile")
    .description("compile a directory of spec-kit task files (*.md) into a version 0.1 spec")
    .argument("<dir>", "the tasks directory")
    .option(
      "--output <file>",
      "write the spec to this file (parent directories created) instead of standard output",
    )
    .option("--flow <name>", "the name of the generated flow", "tasks")
    .action((dir: string, options: CompileOptions) => {
      runCompile(ctx, { dir, output: options.output ?? null, flow: options.flow });
    });
}
