// The three hook scripts (docs/reference/runtime.md §22.1 step 2, docs/reference/runtime.md §22.2 step 4). `install` copies them
// into the project, `.claude/hooks/<script>` with mode 0755, where the shared settings.json runs
// them through "$CLAUDE_PROJECT_DIR" (the same for every teammate). Bare `stratum-mcp` still
// refreshes copies in $STRATUM_HOME/hooks (docs/reference/runtime.md §21.1), which projects set up by the reference run by
// absolute path; uninstall removes both.
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Changes } from "./changes";
import { modeOrNull, readTextOrNull, writeFileAtomic } from "./files";
import { HOOK_SCRIPTS } from "./generated/hook-scripts";

/** Claude Code's hook events and the script registered for each, in the order of the progress lines. */
export const HOOK_EVENTS = [
  { event: "SessionStart", script: "stratum-session-start.sh" },
  { event: "Stop", script: "stratum-session-stop.sh" },
  { event: "PostToolUseFailure", script: "stratum-post-tool-failure.sh" },
] as const;

/** Where install puts the scripts, relative to the project root. */
export const PROJECT_HOOKS_DIR = ".claude/hooks";

export type HookScriptOutcome = "installed" | "updated" | "made executable" | "up to date";

export class MissingHookScriptError extends Error {}

/** The bundled text of a hook script; throws MissingHookScriptError when the bundle lacks it. */
export function bundledHookScript(name: string): string {
  const found = HOOK_SCRIPTS.find((file) => file.name === name);
  if (found === undefined) throw new MissingHookScriptError(`the bundled hook script ${name} is missing`);
  return found.text;
}

/** Plans `path` to hold `text` with mode 0755; says what that takes. */
export function planHookScript(changes: Changes, path: string, text: string): HookScriptOutcome {
  const current = changes.read(path);
  if (current === null || !current.equals(Buffer.from(text))) {
    changes.set(path, text, 0o755);
    return current === null ? "installed" : "updated";
  }
  // Executable for everyone, as 0755 makes it: Claude Code may run hooks as another user's shell.
  if (((modeOrNull(path) ?? 0) & 0o111) !== 0o111) {
    changes.set(path, text, 0o755);
    return "made executable";
  }
  return "up to date";
}

/** Makes `<dir>/<name>` hold `text` with mode 0755; says what it had to do. */
function syncHookScript(dir: string, name: string, text: string): HookScriptOutcome {
  const path = join(dir, name);
  const current = readTextOrNull(path);
  if (current !== text) {
    writeFileAtomic(path, text, 0o755);
    return current === null ? "installed" : "updated";
  }
  if ((statSync(path).mode & 0o111) !== 0o111) {
    writeFileAtomic(path, text, 0o755); // a fresh file: chmod on a file we may not own could fail
    return "made executable";
  }
  return "up to date";
}

/**
 * What bare `stratum-mcp` does before serving (docs/reference/runtime.md §21.1): brings the hook scripts in
 * `hooksDir` up to date, silently. Returns one summary line (without a newline) for standard error
 * when something changed or failed, else null. Never throws.
 */
export function refreshHooks(hooksDir: string, displayDir: string, programName: string): string | null {
  const changes: string[] = [];
  try {
    mkdirSync(hooksDir, { recursive: true });
    for (const { script } of HOOK_EVENTS) {
      const outcome = syncHookScript(hooksDir, script, bundledHookScript(script));
      if (outcome !== "up to date") changes.push(`${script} ${outcome}`);
    }
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    const done = changes.length === 0 ? "" : ` (${changes.join(", ")})`;
    return `${programName}: could not refresh the hook scripts in ${displayDir}${done}: ${reason}`;
  }
  return changes.length === 0
    ? null
    : `${programName}: refreshed the hook scripts in ${displayDir}: ${changes.join(", ")}`;
}
