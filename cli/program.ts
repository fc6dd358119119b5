// The `stratumc` command line: commander set-up and the one place that turns errors into exit
// codes. User mistakes print one line; anything unexpected prints `stratumc: internal error: …`
// and exits 3 — never a stack trace.
import { Command, CommanderError } from "commander";
import { registerCheck } from "./check/command";
import { registerCompile } from "./compile/command";
import { registerEval } from "./eval/command";
import { EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, UsageError } from "./exit-codes";
import { registerExplain } from "./explain/command";
import { registerFlows } from "./flows/command";
import { registerFuzz } from "./fuzz/command";
import { registerGate } from "./gate/command";
import { registerGraph } from "./graph/command";
import { type CliHost, type CommandContext, processHost } from "./host";
import { registerInit } from "./init/command";
import { registerInstall } from "./install/command";
import { registerLsp } from "./lsp/command";
import { runMcpOnlyCommand } from "./mcp-commands/dispatch";
import type { Output } from "./output";
import { registerQuery } from "./query/command";
import { registerReplay } from "./replay/command";
import { registerSchema } from "./schema/command";
import { registerServe } from "./serve/command";
import { MCP_PROGRAM, registerValidate } from "./validate/command";
import { VERSION } from "./version";

/** Runs the CLI on `args` (without the node and script entries); resolves to the exit code. */
export async function runCli(
  args: readonly string[],
  io: Output,
  programName = "stratumc",
  host: CliHost = processHost(),
): Promise<number> {
  let exitCode = EXIT_OK;
  const setExitCode = (code: number) => {
    exitCode = code;
  };
  const program = new Command(programName)
    .version(VERSION)
    .description("checked toolchain for .stratum.yaml specs")
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  const ctx: CommandContext = { io, host, programName, setExitCode };
  registerCheck(program, ctx);
  registerValidate(program, ctx);
  registerExplain(program, ctx);
  registerSchema(program, ctx);
  registerGraph(program, ctx);
  registerCompile(program, ctx);
  registerQuery(program, ctx);
  registerGate(program, ctx);
  // `flows prune` is stratumc's own (runtime.md §21.2); stratum-mcp has no such command (§21.1).
  if (programName !== MCP_PROGRAM) registerFlows(program, ctx);
  registerServe(program, ctx);
  // The language server and the fuzzer are stratumc's own; stratum-mcp keeps the reference's command set.
  if (programName !== MCP_PROGRAM) {
    registerInit(program, ctx);
    registerLsp(program, ctx);
    registerFuzz(program, ctx);
    registerReplay(program, ctx);
  }
  registerInstall(program, ctx);
  registerEval(program, io, setExitCode);
  try {
    // stratum-mcp's help, unknown and unsupported commands and its `compile` words (runtime.md §21.1).
    if (programName === MCP_PROGRAM && runMcpOnlyCommand(program, args, ctx)) return exitCode;
    // Bare `stratum-mcp` is the MCP server, as the reference's command line (runtime.md §21.1).
    const effective = programName === MCP_PROGRAM && args.length === 0 ? ["serve"] : args;
    await program.parseAsync([...effective], { from: "user" });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT_OK : EXIT_USAGE; // already printed
    if (e instanceof UsageError) {
      io.err(`${programName}: ${e.message}\n`);
      return EXIT_USAGE;
    }
    io.err(`${programName}: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT_INTERNAL;
  }
}
