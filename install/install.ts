// `install` (docs/reference/runtime.md §22.1): hook scripts in the project, MCP server, CLAUDE.md block,
// skills, hook entries — in this order, one line per item, then the final line. Everything is
// planned first (every file read, every JSON file parsed: an invalid one stops the command with
// nothing written), then written; the install record (record.ts) is written first, so that
// uninstall can give back exactly what was there.
import { join } from "node:path";
import { Changes } from "./changes";
import { addExecutionModel, hasExecutionModel } from "./claude-md";
import { decodeText } from "./files";
import { planMcpServer } from "./mcp-config";
import { type InstallPaths, planPlaces, shownPath } from "./paths";
import { planProjectScripts, planRegisterHooks } from "./project-hooks";
import { mergeRecord, readRecord, recordPath } from "./record";
import { Report } from "./report";
import { chooseServerCommand } from "./server-command";
import { planInstallSkills } from "./skills";

export { InstallError, reason } from "./files";

const INSTALL_DONE = "Done. Restart Claude Code so that it loads the Stratum MCP server.";
const INSTALL_NOTHING = "Nothing to change: Stratum is already configured.";

export function runInstall(paths: InstallPaths, write: (text: string) => void): void {
  const { projectRoot, home } = paths;
  const changes = new Changes(planPlaces(paths));
  const report = new Report(write);
  // 1. Preconditions: the MCP command (npx for a project dependency, stratum-mcp on PATH, or our
  // script for the local scope).
  const server = chooseServerCommand(paths.searchPath, projectRoot);
  // 2. Hook scripts in the project.
  planProjectScripts(projectRoot, changes, report);
  // 3. MCP registration.
  planMcpServer(paths, server, changes, report);
  // 4. Execution-model block.
  const claudeMd = join(projectRoot, "CLAUDE.md");
  const bytes = changes.read(claudeMd);
  const current = bytes === null ? null : decodeText(bytes, "CLAUDE.md");
  if (current !== null && hasExecutionModel(current))
    report.item("CLAUDE.md", "execution model already present", false);
  else {
    changes.set(claudeMd, addExecutionModel(current));
    report.item("CLAUDE.md", current === null ? "created" : "execution model added", true);
  }
  // 5. Skills.
  planInstallSkills(paths.skillsDir, home, changes, report);
  // 6. Hook registration.
  planRegisterHooks(projectRoot, changes, report);
  // 7. The record, written first; then everything.
  const record = recordPath(paths.installsDir, projectRoot);
  const previous = readRecord(record, projectRoot, shownPath(record, paths));
  const text = mergeRecord(previous, projectRoot, changes, changes.foldersToCreate());
  if (text !== null && changes.set(record, text, 0o600)) {
    changes.first(record);
    // Named like every other file written, so nothing lands in the home folder unannounced; it is
    // bookkeeping, not a change Claude Code has to be restarted for.
    const outcome = previous === null ? "install record written" : "install record updated";
    report.item(shownPath(record, paths), `${outcome} (what uninstall gives back)`, false);
  }
  changes.apply();
  report.finish(report.changed ? INSTALL_DONE : INSTALL_NOTHING);
}
