// Which command runs the Stratum MCP server for Claude Code. `stratum-mcp` when it is an
// executable file in a PATH folder: that name works for every teammate who has it, so it goes to
// the shared `.mcp.json`. Otherwise this node binary with the absolute path of our
// bin/stratum-mcp.cjs: it works on this machine only, so it is registered in Claude Code's local
// scope (~/.claude.json), never in a shared file. (`npx stratumc` is no option: the package is
// not published.)
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { exists, InstallError } from "./files";

export const SERVER_PROGRAM = "stratum-mcp";

export type ServerCommand =
  | { readonly kind: "path"; readonly found: string }
  | { readonly kind: "local"; readonly command: string; readonly args: readonly string[] };

/** The first executable regular file `name` in the folders of `searchPath`, or null. */
function findOnPath(name: string, searchPath: string): string | null {
  for (const dir of searchPath.split(delimiter)) {
    if (dir === "" || !isAbsolute(dir)) continue; // a relative entry depends on the current folder
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not there, or not executable
    }
  }
  return null;
}

/**
 * bin/stratum-mcp.cjs of this installation: beside dist/ in the bundle, beside install/ in the
 * repository (tests), so one level up from this module either way.
 */
function serverScript(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(here, "../bin/stratum-mcp.cjs");
}

export function chooseServerCommand(searchPath: string): ServerCommand {
  const found = findOnPath(SERVER_PROGRAM, searchPath);
  if (found !== null) return { kind: "path", found };
  const script = serverScript();
  if (!exists(script))
    throw new InstallError(
      `${SERVER_PROGRAM} is not on PATH and ${script} does not exist, so no command can start the MCP ` +
        `server; put ${SERVER_PROGRAM} on PATH and run install again. Nothing was changed.`,
    );
  return { kind: "local", command: process.execPath, args: [script] };
}
