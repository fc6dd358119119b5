// Whether the project lists stratumc in its package.json: then every teammate who ran `npm install`
// has stratum-mcp in the project's node_modules/.bin, and `npx --no-install stratum-mcp` run in
// the project starts it there, wherever Claude Code reads the shared .mcp.json — with no
// stratum-mcp on PATH (npx adds node_modules/.bin to PATH only for the commands it runs).
import { join } from "node:path";
import { exists, readTextOrNull } from "./files";

const PACKAGE_NAME = "stratumc";

/** The fields of package.json whose packages `npm install` puts in node_modules. */
const FIELDS = ["devDependencies", "dependencies", "optionalDependencies"] as const;

export interface ProjectDependency {
  /** The package.json field that lists stratumc. */
  readonly field: (typeof FIELDS)[number];
  /** Whether node_modules/.bin/stratum-mcp is there now (npm install has run). */
  readonly installed: boolean;
}

/**
 * The field of `<projectRoot>/package.json` listing stratumc, or null: no package.json, one that
 * is not a JSON object (npm would refuse it too; install does not judge it), or no such entry.
 */
export function projectDependency(projectRoot: string, program: string): ProjectDependency | null {
  let text: string | null;
  try {
    text = readTextOrNull(join(projectRoot, "package.json"));
  } catch {
    return null; // not a file install can read: npm could not read it either
  }
  if (text === null) return null;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(manifest)) return null;
  for (const field of FIELDS) {
    const deps = manifest[field];
    if (isObject(deps) && Object.hasOwn(deps, PACKAGE_NAME)) {
      return { field, installed: exists(join(projectRoot, "node_modules", ".bin", program)) };
    }
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
