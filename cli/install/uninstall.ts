// `uninstall [--keep-skills]` (runtime.md §22.2): undoes what install did, item by item, and leaves
// everything else in the files it edits (other servers, other hooks, the rest of CLAUDE.md).
import { join } from "node:path";
import { hasExecutionModel, removeExecutionModel } from "./claude-md";
import { readTextOrNull, removeFile, writeFileAtomic } from "./files";
import { HOOK_EVENTS } from "./hook-scripts";
import { LEGACY_MCP_CONFIG, MCP_CONFIG, removeMcpServer } from "./mcp-config";
import { displayHomePath, type InstallPaths } from "./paths";
import { unregisterProjectHooks } from "./project-hooks";
import { Report } from "./report";
import { uninstallSkills } from "./skills";

export const UNINSTALL_DONE = "Done. Restart Claude Code so that it unloads the Stratum MCP server.";
export const UNINSTALL_NOTHING = "Nothing to remove: Stratum is not configured here.";

export function runUninstall(paths: InstallPaths, keepSkills: boolean, write: (text: string) => void): void {
  const { projectRoot, home, hooksDir } = paths;
  const report = new Report(write);
  // 1. MCP server (the legacy file only when it is there: most projects never had one).
  removeMcpServer(projectRoot, MCP_CONFIG, report);
  removeMcpServer(projectRoot, LEGACY_MCP_CONFIG, report, true);
  // 2. Execution-model block.
  const claudeMd = join(projectRoot, "CLAUDE.md");
  const current = readTextOrNull(claudeMd);
  if (current === null) report.item("CLAUDE.md", "not found", false);
  else if (!hasExecutionModel(current)) report.item("CLAUDE.md", "execution model not present", false);
  else {
    const rest = removeExecutionModel(current);
    if (rest === null) removeFile(claudeMd);
    else writeFileAtomic(claudeMd, rest);
    report.item("CLAUDE.md", "execution model removed", true);
  }
  // 3. Skills.
  uninstallSkills(paths.skillsDir, home, keepSkills, report);
  // 4. Hook scripts, old copies, hook entries.
  for (const { script } of HOOK_EVENTS) {
    const removed = removeFile(join(hooksDir, script));
    report.item(displayHomePath(join(hooksDir, script), home), removed ? "removed" : "not found", removed);
  }
  unregisterProjectHooks(projectRoot, report);
  // 5.
  report.finish(report.changed ? UNINSTALL_DONE : UNINSTALL_NOTHING);
}
