// Where `install` and `uninstall` work (docs/reference/runtime.md §22): the project root (the nearest of the
// current directory and its ancestors holding `.git` or `CLAUDE.md`), the home directory (for
// ~/.claude/skills and ~/.claude.json), $STRATUM_HOME (for the hook scripts refreshed by bare
// `stratum-mcp`, and the install records) and PATH, all from the host the command passes, never
// from the process, so tests run against temporary directories.
import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { stratumHome } from "../host/index";

/** Where the program runs: install reads nothing of the process itself. */
interface InstallHost {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface InstallPaths {
  readonly projectRoot: string;
  readonly home: string;
  /** `$STRATUM_HOME/hooks`: where the hook scripts live. */
  readonly hooksDir: string;
  /** `~/.claude/skills`. */
  readonly skillsDir: string;
  /** `~/.claude.json`: Claude Code's own file, holding the local-scope MCP servers per project. */
  readonly claudeJson: string;
  /** `$STRATUM_HOME/installs`: one install record per project. */
  readonly installsDir: string;
  /** The host's PATH (where `stratum-mcp` is looked for). */
  readonly searchPath: string;
}

export function installPaths(host: InstallHost): InstallPaths {
  const home = homeDir(host);
  return {
    projectRoot: realPath(findProjectRoot(resolve(host.cwd))),
    home,
    hooksDir: hooksDir(host),
    skillsDir: join(home, ".claude", "skills"),
    claudeJson: join(home, ".claude.json"),
    installsDir: join(dirname(hooksDir(host)), "installs"),
    searchPath: host.env.PATH ?? "",
  };
}

/** The host's home directory: `HOME`, else the account's. */
export function homeDir(host: InstallHost): string {
  return resolve(host.cwd, nonEmpty(host.env.HOME) ?? homedir());
}

/** `$STRATUM_HOME/hooks`; a relative STRATUM_HOME is taken from the host's directory. */
export function hooksDir(host: InstallHost): string {
  const value = nonEmpty(host.env.STRATUM_HOME);
  const env =
    value !== undefined && !value.startsWith("~") ? { STRATUM_HOME: resolve(host.cwd, value) } : host.env;
  return join(stratumHome(env, homeDir(host)), "hooks");
}

/** The path without symbolic links (Claude Code keys its projects by the real path). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The nearest of `dir` and its ancestors that contains `.git` or `CLAUDE.md`, else `dir`. */
function findProjectRoot(dir: string): string {
  for (let current = dir; ; ) {
    if (existsSync(join(current, ".git")) || existsSync(join(current, "CLAUDE.md"))) return current;
    const parent = dirname(current);
    if (parent === current) return dir;
    current = parent;
  }
}

/** A path outside the project as the progress lines show it: `~/…` under the home directory. */
export function displayHomePath(path: string, home: string): string {
  const rel = relative(home, path);
  if (rel === "") return "~";
  if (rel.startsWith("..") || isAbsolute(rel)) return path;
  return `~/${rel.split(sep).join("/")}`;
}

/** A path as messages show it: relative inside the project, `~/…` under the home folder. */
export function shownPath(path: string, paths: Pick<InstallPaths, "projectRoot" | "home">): string {
  const rel = relative(paths.projectRoot, path);
  if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/");
  return displayHomePath(path, paths.home);
}

/** The roots install and uninstall write in (write-target.ts), and how they show a path. */
export function planPlaces(paths: InstallPaths): {
  readonly roots: readonly string[];
  readonly show: (path: string) => string;
} {
  return {
    roots: [paths.projectRoot, paths.home, dirname(paths.hooksDir)],
    show: (path) => shownPath(path, paths),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
