// `install` and `uninstall [--keep-skills]` of both binaries (docs/reference/runtime.md §22): set up or remove
// the Claude Code integration of the project around the current directory. A failure prints
// `<program>: <reason>` on standard error and exits 1.
import type { Command } from "commander";
import type { CommandContext } from "../command-context";

export function registerInstall(program: Command, ctx: CommandContext): void {
  program
    .command("install")
    .description("set up Claude Code for this project: MCP server, CLAUDE.md block, skills and hooks")
    .action(async () => (await import("./actions")).install(ctx));
  program
    .command("uninstall")
    .description("remove what install set up (skills too, unless --keep-skills)")
    .option("--keep-skills", "leave the skills in ~/.claude/skills")
    .action(async (flags: { keepSkills?: boolean }) =>
      (await import("./actions")).uninstall(ctx, flags.keepSkills === true),
    );
}

/**
 * Bare `stratum-mcp` before it serves (docs/reference/runtime.md §21.1): refreshes the hook scripts in
 * $STRATUM_HOME/hooks; the summary line (with its newline) for standard error, or null.
 */
export async function refreshHookScripts(
  ctx: Pick<CommandContext, "host" | "programName">,
): Promise<string | null> {
  return (await import("./actions")).refreshHookScriptsNow(ctx);
}
