// What install, uninstall and the hook refresh do when they run (loaded on demand by command.ts,
// so that the bundled skills and scripts are not initialised for other commands).

import {
  displayHomePath,
  homeDir,
  hooksDir,
  InstallError,
  installPaths,
  MissingHookScriptError,
  reason,
  refreshHooks,
  runInstall,
  runUninstall,
} from "../../install/index";
import type { CommandContext } from "../command-context";
import { EXIT_ERRORS } from "../exit-codes";

export function install(ctx: CommandContext): void {
  guarded(ctx, () => runInstall(installPaths(ctx.host), (text) => ctx.io.out(text)));
}

export function uninstall(ctx: CommandContext, keepSkills: boolean): void {
  guarded(ctx, () => runUninstall(installPaths(ctx.host), keepSkills, (text) => ctx.io.out(text)));
}

/**
 * Bare `stratum-mcp` before it serves (docs/reference/runtime.md §21.1): refreshes the hook scripts in
 * $STRATUM_HOME/hooks; the summary line (with its newline) for standard error, or null.
 */
export function refreshHookScriptsNow(ctx: Pick<CommandContext, "host" | "programName">): string | null {
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
