// `install` (runtime.md §22.1): hook scripts, MCP server, CLAUDE.md block, skills, hook entries —
// in this order, one progress line per item, then the final line. Preconditions are checked before
// the project is touched; a hook script that cannot be written stops before any registration.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { addExecutionModel, hasExecutionModel } from "./claude-md";
import { readTextOrNull, writeFileAtomic } from "./files";
import { bundledHookScript, HOOK_EVENTS, syncHookScript } from "./hook-scripts";
import { addMcpServer } from "./mcp-config";
import { displayHomePath, type InstallPaths } from "./paths";
import { registerProjectHooks } from "./project-hooks";
import { Report } from "./report";
import { installSkills } from "./skills";

/** A failure that ends the command with exit 1 and this message on standard error. */
export class InstallError extends Error {}

export const INSTALL_DONE = "Done. Restart Claude Code so that it loads the Stratum MCP server.";
export const INSTALL_NOTHING = "Nothing to change: Stratum is already configured.";

export function runInstall(paths: InstallPaths, write: (text: string) => void): void {
  const { projectRoot, home, hooksDir } = paths;
  const shownHooksDir = displayHomePath(hooksDir, home);
  // 1. Preconditions.
  const scripts = HOOK_EVENTS.map(({ script }) => ({ script, text: bundledHookScript(script) }));
  try {
    mkdirSync(hooksDir, { recursive: true });
  } catch (e) {
    throw new InstallError(`cannot create ${shownHooksDir}: ${reason(e)}`);
  }
  const report = new Report(write);
  // 2. Hook scripts.
  for (const { script, text } of scripts) {
    let outcome: string;
    try {
      outcome = syncHookScript(hooksDir, script, text);
    } catch (e) {
      throw new InstallError(`cannot write ${shownHooksDir}/${script}: ${reason(e)}`);
    }
    report.item(`${shownHooksDir}/${script}`, outcome, outcome !== "up to date");
  }
  // 3. MCP registration.
  addMcpServer(projectRoot, report);
  // 4. Execution-model block.
  const claudeMd = join(projectRoot, "CLAUDE.md");
  const current = readTextOrNull(claudeMd);
  if (current !== null && hasExecutionModel(current))
    report.item("CLAUDE.md", "execution model already present", false);
  else {
    writeFileAtomic(claudeMd, addExecutionModel(current));
    report.item("CLAUDE.md", current === null ? "created" : "execution model added", true);
  }
  // 5. Skills.
  installSkills(paths.skillsDir, home, report);
  // 6. Hook registration.
  registerProjectHooks(projectRoot, hooksDir, report);
  // 7.
  report.finish(report.changed ? INSTALL_DONE : INSTALL_NOTHING);
}

export function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
