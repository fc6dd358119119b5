// `uninstall [--keep-skills]` (docs/reference/runtime.md §22.2): undoes what install did. A file install
// changed and nobody touched since gets back exactly the bytes it had (the install record); any
// other file is undone entry by entry, keeping everything else in it (other servers, other hooks,
// the rest of CLAUDE.md). Planned first like install: an invalid JSON file stops the command with
// nothing changed.
import { join } from "node:path";
import { Changes, removeEmptyFolders } from "./changes";
import { hasExecutionModel, removeExecutionModel } from "./claude-md";
import { decodeText } from "./files";
import { HOOK_EVENTS } from "./hook-scripts";
import { LEGACY_MCP_CONFIG, MCP_CONFIG, planRemoveLocalServer, planRemoveMcpServer } from "./mcp-config";
import { displayHomePath, type InstallPaths, planPlaces, shownPath } from "./paths";
import { planUnregisterHooks } from "./project-hooks";
import { readRecord, recordedBefore, recordPath } from "./record";
import { Report } from "./report";
import { planUninstallSkills } from "./skills";

const UNINSTALL_DONE = "Done. Restart Claude Code so that it unloads the Stratum MCP server.";
const UNINSTALL_NOTHING = "Nothing to remove: Stratum is not configured here.";

export function runUninstall(paths: InstallPaths, keepSkills: boolean, write: (text: string) => void): void {
  const { projectRoot, home, hooksDir } = paths;
  const changes = new Changes(planPlaces(paths));
  const report = new Report(write);
  const recordFile = recordPath(paths.installsDir, projectRoot);
  const record = readRecord(recordFile, projectRoot, shownPath(recordFile, paths));
  const restore = (path: string) => recordedBefore(record, path, changes.disk(path));
  // 1. MCP server: .mcp.json, the reference's legacy file (only when there), the local scope.
  planRemoveMcpServer(projectRoot, MCP_CONFIG, changes, report);
  planRemoveMcpServer(projectRoot, LEGACY_MCP_CONFIG, changes, report);
  planRemoveLocalServer(paths, changes, report);
  // 2. Execution-model block.
  const claudeMd = join(projectRoot, "CLAUDE.md");
  const bytes = changes.read(claudeMd);
  const current = bytes === null ? null : decodeText(bytes, "CLAUDE.md");
  if (current === null) {
    // No CLAUDE.md: nothing to say (uninstall names what it removed, not what was never there).
  } else if (!hasExecutionModel(current)) report.item("CLAUDE.md", "execution model not present", false);
  else {
    changes.set(claudeMd, removeExecutionModel(current));
    report.item("CLAUDE.md", "execution model removed", true);
  }
  // 3. Skills.
  planUninstallSkills(paths.skillsDir, home, keepSkills, changes, report, restore);
  // 4. Hook scripts ($STRATUM_HOME/hooks, refreshed by bare stratum-mcp; the project's copies) and
  // hook entries.
  for (const { script } of HOOK_EVENTS) {
    const path = join(hooksDir, script);
    if (changes.read(path) === null) continue;
    changes.set(path, null);
    report.item(displayHomePath(path, home), "removed", true);
  }
  planUnregisterHooks(projectRoot, changes, report);
  // 5. Exact bytes for every file the record knows and nobody changed since install.
  const skillFolder = join(paths.skillsDir, "stratum-");
  for (const path of Object.keys(record?.files ?? {})) {
    if (keepSkills && path.startsWith(skillFolder)) continue;
    const previous = restore(path);
    if (previous !== undefined) changes.set(path, previous.bytes, previous.mode ?? undefined);
  }
  if (changes.set(recordFile, null))
    report.item(shownPath(recordFile, paths), "install record removed", false);
  changes.apply();
  removeEmptyFolders(record?.folders ?? []);
  report.finish(report.changed ? UNINSTALL_DONE : UNINSTALL_NOTHING);
}
