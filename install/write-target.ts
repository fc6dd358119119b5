// Where a planned write really lands. install and uninstall write inside three
// roots: the project, the home folder (~/.claude.json, the skills) and STRATUM_HOME (the records,
// the refreshed hook scripts). A file that is a symbolic link is edited in place at its target, so
// the link survives (CLAUDE.md → AGENTS.md is common), but only when the target lies inside the
// link's own root: a cloned repository must not make install write into ~/.bashrc or the user's
// global settings through `.claude/settings.json` or a linked `.claude` folder. A link to a missing
// file, one leading out of its root, and the deletion of a link (its target would keep our entries)
// stop the command with nothing written.
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { InstallError, isErrno, NOTHING_CHANGED } from "./files";

const MOVE =
  "Nothing was changed; replace the link by the file itself, or move it, and run the command again.";

/**
 * The path to write `path` through: its link target, or `path` itself. `roots`: the folders a
 * path of theirs must stay in; `shown`: the file as messages name it; `deleting`: the plan
 * removes the file.
 */
export function writeTarget(
  path: string,
  roots: readonly string[],
  shown: string,
  deleting: boolean,
): string {
  const root = rootOf(path, roots);
  const link = linkText(path);
  if (link !== null) {
    if (deleting)
      throw new InstallError(
        `${shown} is a symbolic link (to ${link}) and would have to be deleted. ${MOVE}`,
      );
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      throw new InstallError(`${shown} is a symbolic link to a missing file (${link}). ${MOVE}`);
    }
    checkInside(real, root, shown);
    return real;
  }
  checkInside(realLocation(path), root, shown);
  return path;
}

function checkInside(real: string, root: string | undefined, shown: string): void {
  if (root === undefined) return;
  const realRoot = realLocation(root);
  if (real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep)) return;
  throw new InstallError(
    `${shown} leads outside ${root} through a symbolic link (to ${real}); install and uninstall ` +
      `write only inside the project, the home folder and STRATUM_HOME. ${NOTHING_CHANGED}`,
  );
}

/** The longest root holding `path`. */
function rootOf(path: string, roots: readonly string[]): string | undefined {
  let found: string | undefined;
  for (const root of roots) {
    const inside = path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
    if (inside && (found === undefined || root.length > found.length)) found = root;
  }
  return found;
}

/** What the link at `path` says, or null when `path` is not a link (or does not exist). */
function linkText(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
  } catch (e) {
    if (isErrno(e, "ENOENT") || isErrno(e, "ENOTDIR")) return null;
    throw e;
  }
}

/** `path` with every link resolved; the part that does not exist yet is kept as written. */
function realLocation(path: string): string {
  const rest: string[] = [];
  for (let dir = path; ; dir = dirname(dir)) {
    try {
      return join(realpathSync(dir), ...rest);
    } catch {
      if (dirname(dir) === dir) return path;
      rest.unshift(basename(dir));
    }
  }
}
