// `stratumc validate FILE|-` and `stratum-mcp validate FILE`: print the `stratum_validate` result
// `{valid, errors, warnings}` (docs/reference/runtime.md §16.3) as JSON on standard output; exit 0 when valid,
// 1 when not. This follows the checker's JSON output, which replaces the text output of docs/reference/runtime.md §21.
//
// The argument is read as in the reference (docs/reference/runtime.md §21.1): text with a line break, or starting
// with `version:`, is the spec itself; otherwise a file (`-` = standard input). When no such file
// exists the argument is validated as YAML text if it loads as a mapping. A file that cannot be read
// prints `ERROR: cannot open '<arg>': <reason>` on standard error, exit 2 (stratum-mcp: exit 1, as
// the reference). stratum-mcp validates the empty text when the argument is missing.
import { resolve } from "node:path";
import type { Command } from "commander";
import { type CheckResult, checkSpec } from "../../checker/index";
import { checkRead, type ReadResult, readSpecFile, readSpecStdin } from "../check/read-spec";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS, EXIT_OK, EXIT_USAGE } from "../exit-codes";
import { MCP_PROGRAM } from "../program-name";

export { MCP_PROGRAM };

export function registerValidate(program: Command, ctx: CommandContext): void {
  const mcp = ctx.programName === MCP_PROGRAM;
  program
    .command("validate")
    .description("print the stratum_validate result {valid, errors, warnings} of one spec as JSON")
    .argument(mcp ? "[file]" : "<file>", "the spec file, - for standard input, or the YAML text itself")
    .action(async (arg: string | undefined) => {
      const checked = await check(arg, ctx);
      if ("reason" in checked) {
        ctx.io.err(`ERROR: cannot open '${arg ?? ""}': ${checked.reason}\n`);
        ctx.setExitCode(mcp ? EXIT_ERRORS : EXIT_USAGE);
        return;
      }
      const answer = { valid: checked.valid, errors: checked.errors, warnings: checked.warnings };
      ctx.io.out(`${JSON.stringify(answer, null, 2)}\n`);
      ctx.setExitCode(checked.valid ? EXIT_OK : EXIT_ERRORS);
    });
}

async function check(
  arg: string | undefined,
  ctx: CommandContext,
): Promise<CheckResult | { reason: string }> {
  if (arg === undefined) return checkSpec("");
  if (/[\r\n]/.test(arg) || arg.trimStart().startsWith("version:")) return checkSpec(arg);
  const read: ReadResult =
    arg === "-" ? await readSpecStdin(ctx.host) : readSpecFile(resolve(ctx.host.cwd, arg));
  if (read.ok) return checkRead(read);
  if (arg !== "-" && read.reason === "file not found") {
    // The reference validates the argument itself when it loads as a mapping (a one-line `{…}`).
    const asText = checkSpec(arg);
    const mapping = !asText.diagnostics.some(
      (d) => d.code === "SCHEMA-ROOT-NOT-MAPPING" || (d.severity === "error" && d.code.startsWith("YAML-")),
    );
    if (mapping) return asText;
  }
  return { reason: read.reason };
}
