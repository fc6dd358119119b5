// The `stratum` MCP server entry (docs/reference/runtime.md §22.1 step 3, docs/reference/runtime.md §22.2 step 1),
// as server-command.ts chooses it. With stratumc a dependency of the project:
// `{"command": "npx", "args": ["--no-install", "stratum-mcp"]}` in `.mcp.json`, the shared file
// Claude Code reads for project-scoped servers (DIV-MCP-JSON-LOCATION). With `stratum-mcp` installed
// on PATH: `{"command": "stratum-mcp"}` there. Otherwise: the absolute node and script in Claude
// Code's local scope, `projects[<project root>].mcpServers` of ~/.claude.json, which is personal (a
// machine's paths never reach a shared file). An entry in `.mcp.json` that is exactly one install
// writes is brought to the chosen one; any other entry of that name is the user's and stays.
// Uninstall removes the entry from both, and from the `.claude/mcp.json` the reference used to
// write. A value of the wrong type on the way to our entry stops install (json-shape.ts); uninstall
// leaves such values as they are.
import { join } from "node:path";
import type { Changes } from "./changes";
import { isJsonObject, type JsonObject, jsonText, own, parseJsonObject } from "./files";
import { type JsonPath, objectAt, wrongType } from "./json-shape";
import { displayHomePath, type InstallPaths } from "./paths";
import type { Report } from "./report";
import { NPX_ENTRY, SERVER_PROGRAM, type ServerCommand } from "./server-command";

export const MCP_CONFIG = ".mcp.json";
export const LEGACY_MCP_CONFIG = ".claude/mcp.json";
const SERVER = "stratum";

/** Plans the registration chosen by `choice`; the report says which one and why. */
export function planMcpServer(
  paths: InstallPaths,
  choice: ServerCommand,
  changes: Changes,
  report: Report,
): void {
  if (choice.kind === "npx") {
    planProjectServer(paths.projectRoot, { ...NPX_ENTRY, args: [...NPX_ENTRY.args] }, changes, report);
    report.note(`MCP server command: ${[NPX_ENTRY.command, ...NPX_ENTRY.args].join(" ")}`);
    report.note(
      `stratumc is in the ${choice.dependency.field} of package.json, so every teammate who ran npm install ` +
        `has ${SERVER_PROGRAM} in node_modules/.bin: npx starts it from there wherever ${MCP_CONFIG} is read, ` +
        `without ${SERVER_PROGRAM} on PATH.`,
    );
    if (!choice.dependency.installed)
      report.note(
        `node_modules/.bin/${SERVER_PROGRAM} is not there yet: run npm install before you start Claude Code.`,
      );
    return;
  }
  if (choice.kind === "path") {
    planProjectServer(paths.projectRoot, { command: SERVER_PROGRAM }, changes, report);
    report.note(`MCP server command: ${SERVER_PROGRAM} (on PATH: ${choice.found})`);
    report.note(
      `${SERVER_PROGRAM} is installed on PATH, not only in a node_modules/.bin, so the name works for every ` +
        `teammate who installed stratumc the same way.`,
    );
    return;
  }
  const shown = displayHomePath(paths.claudeJson, paths.home);
  // node runs the script itself here, so the launcher's malloc arena limit (bin/stratum-mcp.cjs)
  // is set in the server's environment instead.
  const entry = { type: "stdio", command: choice.command, args: [...choice.args], env: SERVER_ENV };
  const outcome = planLocalServer(paths.claudeJson, paths.projectRoot, entry, changes);
  report.item(
    shown,
    `${outcome} (local scope of this project)`,
    outcome !== "stratum server already present",
  );
  report.note(`MCP server command: ${[choice.command, ...choice.args].join(" ")}`);
  const where =
    choice.npmBin === null
      ? `${SERVER_PROGRAM} is not on PATH`
      : `${SERVER_PROGRAM} is on PATH only through node_modules/.bin (as npx runs it), and stratumc is not ` +
        "a dependency in package.json";
  report.note(
    `${where}, so this command works on this machine only: it is registered for you alone ` +
      `(~/.claude.json), not in the shared ${MCP_CONFIG}. To register it for the whole team, add stratumc ` +
      `to the project's devDependencies (or put ${SERVER_PROGRAM} on PATH) and run install again.`,
  );
}

function planProjectServer(projectRoot: string, entry: JsonObject, changes: Changes, report: Report): void {
  const path = join(projectRoot, MCP_CONFIG);
  const bytes = changes.read(path);
  if (bytes === null) {
    changes.set(path, jsonText({ mcpServers: { [SERVER]: entry } }));
    report.item(MCP_CONFIG, "created", true);
    return;
  }
  const config = parseJsonObject(bytes, MCP_CONFIG);
  const servers = objectAt(config, ["mcpServers"], MCP_CONFIG, SERVERS);
  if (hasServer(servers, ["mcpServers", SERVER], MCP_CONFIG)) {
    const current = own(servers, SERVER);
    const written = writtenByInstall(current);
    if (written === null || JSON.stringify(current) === JSON.stringify(entry)) {
      report.item(MCP_CONFIG, "stratum server already present", false);
      return;
    }
    changes.set(path, jsonText({ ...config, mcpServers: { ...servers, [SERVER]: entry } }));
    report.item(MCP_CONFIG, `stratum server command updated (was ${written})`, true);
    return;
  }
  changes.set(path, jsonText({ ...config, mcpServers: { ...servers, [SERVER]: entry } }));
  report.item(MCP_CONFIG, "stratum server added", true);
}

/**
 * The command line of an entry exactly as some install writes it to `.mcp.json` (so install may
 * change it), or null: an entry the user wrote or changed, which install leaves alone.
 */
function writtenByInstall(entry: unknown): string | null {
  for (const form of [{ command: SERVER_PROGRAM }, NPX_ENTRY]) {
    if (JSON.stringify(entry) === JSON.stringify(form))
      return [form.command, ...("args" in form ? form.args : [])].join(" ");
  }
  return null;
}

function planLocalServer(
  claudeJson: string,
  projectRoot: string,
  entry: JsonObject,
  changes: Changes,
): string {
  const bytes = changes.read(claudeJson);
  const shown = "~/.claude.json";
  const config = bytes === null ? {} : parseJsonObject(bytes, shown);
  const projects = objectAt(config, ["projects"], shown, "an object (project path → settings)");
  const project = objectAt(projects, ["projects", projectRoot], shown, "an object (the project's settings)");
  const at = ["projects", projectRoot, "mcpServers"];
  const servers = objectAt(project, at, shown, SERVERS);
  if (hasServer(servers, [...at, SERVER], shown)) return "stratum server already present";
  const nextProject = { ...project, mcpServers: { ...servers, [SERVER]: entry } };
  changes.set(claudeJson, jsonText({ ...config, projects: { ...projects, [projectRoot]: nextProject } }));
  return "stratum server added";
}

const SERVERS = "an object (server name → server)";

/** The environment of a server node starts directly: two malloc arenas keep its memory flat. */
const SERVER_ENV = { MALLOC_ARENA_MAX: "2" };

/**
 * Whether `servers` has our entry; one that is not an object (not a server Claude Code can start)
 * stops install instead of being reported as present.
 */
function hasServer(servers: JsonObject, at: JsonPath, shown: string): boolean {
  const entry = own(servers, SERVER);
  if (entry === undefined) return false;
  if (!isJsonObject(entry)) throw wrongType(shown, at, entry, 'an object (a server: {"command": …})');
  return true;
}

/** Our entry as uninstall removes it: an object under our name; anything else is not ours and stays. */
function ourServer(servers: unknown): servers is JsonObject {
  return isJsonObject(servers) && isJsonObject(own(servers, SERVER));
}

/**
 * Plans the removal of the `stratum` server from `<projectRoot>/<relPath>`; the file is deleted
 * when no server and nothing else remains. A missing file gets no line (nothing to remove).
 */
export function planRemoveMcpServer(
  projectRoot: string,
  relPath: string,
  changes: Changes,
  report: Report,
): void {
  const path = join(projectRoot, relPath);
  const bytes = changes.read(path);
  if (bytes === null) return;
  const file = parseJsonObject(bytes, relPath);
  const servers = own(file, "mcpServers");
  if (!ourServer(servers)) {
    report.item(relPath, "stratum server not present", false);
    return;
  }
  const remaining: JsonObject = { ...servers };
  delete remaining[SERVER];
  const config: JsonObject = { ...file, mcpServers: remaining };
  // Other top-level keys are not ours to drop: the file goes only when it would be empty.
  const onlyServers = Object.keys(config).length === 1;
  changes.set(path, Object.keys(remaining).length === 0 && onlyServers ? null : jsonText(config));
  report.item(relPath, "stratum server removed", true);
}

/** Plans the removal of the local-scope `stratum` server of the project; a line only when found. */
export function planRemoveLocalServer(paths: InstallPaths, changes: Changes, report: Report): void {
  const bytes = changes.read(paths.claudeJson);
  if (bytes === null) return;
  const shown = displayHomePath(paths.claudeJson, paths.home);
  const config = parseJsonObject(bytes, shown);
  const projects = own(config, "projects");
  if (!isJsonObject(projects) || !Object.hasOwn(projects, paths.projectRoot)) return;
  const project = projects[paths.projectRoot];
  if (!isJsonObject(project)) return;
  const servers = own(project, "mcpServers");
  if (!ourServer(servers)) return;
  const remaining: JsonObject = { ...servers };
  delete remaining[SERVER];
  const nextProject: JsonObject = { ...project, mcpServers: remaining };
  const nextProjects: JsonObject = { ...projects, [paths.projectRoot]: nextProject };
  changes.set(paths.claudeJson, jsonText({ ...config, projects: nextProjects }));
  report.item(shown, "stratum server removed (local scope of this project)", true);
}
