// The `stratum` MCP server entry (runtime.md §22.1 step 3, §22.2 step 1) in `.mcp.json`, the file
// Claude Code reads for project-scoped servers (DIV-MCP-JSON-LOCATION); uninstall also cleans the
// `.claude/mcp.json` the reference used to write.
import { join } from "node:path";
import { isJsonObject, type JsonObject, own, readJsonObject, removeFile, writeJson } from "./files";
import type { Report } from "./report";

export const MCP_CONFIG = ".mcp.json";
export const LEGACY_MCP_CONFIG = ".claude/mcp.json";
const SERVER = "stratum";
const SERVER_ENTRY = { command: "stratum-mcp" };

export function addMcpServer(projectRoot: string, report: Report): void {
  const path = join(projectRoot, MCP_CONFIG);
  const file = readJsonObject(path);
  if (file.kind === "missing") {
    writeJson(path, { mcpServers: { [SERVER]: SERVER_ENTRY } });
    report.item(MCP_CONFIG, "created", true);
    return;
  }
  // runtime.md §22.1 says an invalid file counts as {}; overwriting it would lose whatever the
  // user has there, so it is left alone and reported (docs/decisions.md). A non-object
  // mcpServers still counts as {}.
  if (file.kind === "unreadable") {
    report.item(MCP_CONFIG, "unreadable, left alone", false);
    return;
  }
  const config: JsonObject = file.value;
  const servers = own(config, "mcpServers");
  if (isJsonObject(servers) && Object.hasOwn(servers, SERVER)) {
    report.item(MCP_CONFIG, "stratum server already present", false);
    return;
  }
  const kept = isJsonObject(servers) ? servers : {};
  writeJson(path, { ...config, mcpServers: { ...kept, [SERVER]: SERVER_ENTRY } });
  report.item(MCP_CONFIG, "stratum server added", true);
}

/**
 * Removes the `stratum` server from `<projectRoot>/<relPath>`; the file is deleted when no server
 * and nothing else remains. `quietWhenMissing`: print no line for a missing file (the legacy file).
 */
export function removeMcpServer(
  projectRoot: string,
  relPath: string,
  report: Report,
  quietWhenMissing = false,
): void {
  const path = join(projectRoot, relPath);
  const file = readJsonObject(path);
  if (file.kind === "missing") {
    if (!quietWhenMissing) report.item(relPath, "not found", false);
    return;
  }
  if (file.kind === "unreadable") {
    report.item(relPath, "unreadable, left alone", false);
    return;
  }
  const servers = own(file.value, "mcpServers");
  if (!isJsonObject(servers) || !Object.hasOwn(servers, SERVER)) {
    report.item(relPath, "stratum server not present", false);
    return;
  }
  const remaining: JsonObject = { ...servers };
  delete remaining[SERVER];
  const config: JsonObject = { ...file.value, mcpServers: remaining };
  // Other top-level keys are not ours to drop: the file goes only when it would be empty.
  const onlyServers = Object.keys(config).length === 1;
  if (Object.keys(remaining).length === 0 && onlyServers) removeFile(path);
  else writeJson(path, config);
  report.item(relPath, "stratum server removed", true);
}
