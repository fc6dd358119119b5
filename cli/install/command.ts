// `install` and `uninstall [--keep-skills]` of both binaries (runtime.md §22): set up or remove
// the Claude Code integration of the project around the current directory. A failure prints
// `<program>: <reason>` on standard error and exits 1.
import type { Command } from "commander";
import { EXIT_ERRORS } from "../exit-codes";
import type { CommandContext } from "../host";
import { MissingHookScriptError, refreshHooks } from "./hook-scripts";
import { InstallError, reason, runInstall } from "./install";
import { displayHomePath, homeDir, hooksDir, installPaths } from "./paths";
import { runUninstall } from "./uninstall";

export function registerInstall(program: Command, ctx: CommandContext): void {
  const out = (text: string) => ctx.io.out(text);
  program
    .command("install")
    .description("set up Claude Code for this project: MCP server, CLAUDE.md block, skills and hooks")
    .action(() => guarded(ctx, () => runInstall(installPaths(ctx.host), out)));
  program
    .command("uninstall")
    .description("remove what install set up (skills too, unless --keep-skills)")
    .option("--keep-skills", "leave the skills in ~/.claude/skills")
    .action((flags: { keepSkills?: boolean }) =>
      guarded(ctx, () => runUninstall(installPaths(ctx.host), flags.keepSkills === true, out)),
    );
}

/**
 * Bare `stratum-mcp` before it serves (runtime.md §21.1): refreshes the hook scripts in
 * $STRATUM_HOME/hooks; the summary line (with its newline) for standard error, or null.
 */
export function refreshHookScripts(ctx: Pick<CommandContext, "host" | "programName">): string | null {
  const dir = hooksDir(ctx.host);
  const line = refreshHooks(dir, displayHomePath(dir, homeDir(ctx.host)), ctx.programName);
  return line === null ? null : `${line}\n`;
}

function guarded(ctx: CommandContext, run: () => void): void {
  try {
    run();
  } catch (e) {
    // File-system failures and our own are the user's to fix; anything else is a bug (exit 3).
    const expected = e instanceof InstallError || e instanceof MissingHookScriptError || isSystemError(e);
    if (!expected) throw e;
    ctx.io.err(`${ctx.programName}: ${reason(e)}\n`);
    ctx.setExitCode(EXIT_ERRORS);
  }
}

function isSystemError(e: unknown): boolean {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === "string";
}
