// Which command runs the Stratum MCP server for Claude Code, in this order:
// - stratumc is a dependency in the project's package.json: `npx --no-install stratum-mcp`, in the
//   shared `.mcp.json`. It works for every teammate who ran `npm install`, without stratum-mcp on
//   PATH (project-dependency.ts).
// - `stratum-mcp` is an executable file in a PATH folder that is not a node_modules/.bin (a global
//   install): that name, in the shared `.mcp.json`; it works for every teammate who has it.
// - Otherwise this node binary with the absolute path of our bin/stratum-mcp.cjs: it works on this
//   machine only, so it is registered in Claude Code's local scope (~/.claude.json), never in a
//   shared file. A stratum-mcp found only in a node_modules/.bin folder is PATH only while npm or
//   npx runs a command (`npx stratumc install`); Claude Code would not find it by name.
import { accessSync, constants, statSync } from "node:fs";
import { basename, delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { exists, InstallError } from "./files";
import { type ProjectDependency, projectDependency } from "./project-dependency";

export const SERVER_PROGRAM = "stratum-mcp";

export type ServerCommand =
  | { readonly kind: "npx"; readonly dependency: ProjectDependency }
  | { readonly kind: "path"; readonly found: string }
  | {
      readonly kind: "local";
      readonly command: string;
      readonly args: readonly string[];
      /** A stratum-mcp found in a node_modules/.bin folder on PATH only, or null. */
      readonly npmBin: string | null;
    };

/** The npx form of the shared entry: npx finds the program in the project's node_modules/.bin. */
export const NPX_ENTRY = { command: "npx", args: ["--no-install", SERVER_PROGRAM] } as const;

/** Whether `dir` is a node_modules/.bin folder, which npm and npx put on PATH for their commands only. */
function isNpmBin(dir: string): boolean {
  return basename(dir) === ".bin" && basename(dirname(dir)) === "node_modules";
}

/** The executable regular files `name` in the folders of `searchPath`, in PATH order. */
function findOnPath(name: string, searchPath: string): string[] {
  const found: string[] = [];
  for (const dir of searchPath.split(delimiter)) {
    if (dir === "" || !isAbsolute(dir)) continue; // a relative entry depends on the current folder
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      found.push(candidate);
    } catch {
      // not there, or not executable
    }
  }
  return found;
}

/**
 * bin/stratum-mcp.cjs of this installation: beside dist/ in the bundle, beside install/ in the
 * repository (tests), so one level up from this module either way.
 */
function serverScript(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(here, "../bin/stratum-mcp.cjs");
}

export function chooseServerCommand(searchPath: string, projectRoot: string): ServerCommand {
  const dependency = projectDependency(projectRoot, SERVER_PROGRAM);
  if (dependency !== null) return { kind: "npx", dependency };
  const found = findOnPath(SERVER_PROGRAM, searchPath);
  const global = found.find((f) => !isNpmBin(dirname(f)));
  if (global !== undefined) return { kind: "path", found: global };
  const script = serverScript();
  if (!exists(script))
    throw new InstallError(
      `${SERVER_PROGRAM} is not on PATH and ${script} does not exist, so no command can start the MCP ` +
        `server; put ${SERVER_PROGRAM} on PATH and run install again. Nothing was changed.`,
    );
  return { kind: "local", command: process.execPath, args: [script], npmBin: found[0] ?? null };
}
