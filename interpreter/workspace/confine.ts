// Confinement of the workspace tools (list_workflows, compile_speckit, draft_pipeline) to the
// workspace root: the server's working directory, or STRATUM_WORKSPACE_ROOT.
// The rules are those of the file builtins (docs/reference/language.md §10.9 "Working root", the same
// `isInsideRoot` test): a path is made absolute, its symbolic links are resolved, and only the
// resolved path is compared with the resolved root; a path outside is refused, and the file that
// is then read or written is the resolved one, so a link swapped after the check cannot redirect
// it. A `*.md` or `*.stratum.yaml` entry that is a symbolic link out of the root is refused too.
import { isInsideRoot } from "../../stdlib/builtins/file-access";
import type { DirEntry, FsResult, WorkspaceFs } from "./workspace";

/** The short reason of a refused path (FsResult.reason and tool messages). */
function outsideRootReason(root: string): string {
  return `outside the workspace root '${root}'`;
}

/**
 * The resolved form of the absolute `path` when it lies inside `root` (itself resolved here), else
 * null. Missing tails are resolved like Python's non-strict `Path.resolve()` (WorkspaceFs.realpath),
 * so a directory that draft_pipeline is about to create is judged by where it would be.
 */
export function resolveInWorkspace(fs: WorkspaceFs, root: string, path: string): string | null {
  if (path.includes("\0")) return null;
  const real = fs.realpath(path);
  return isInsideRoot(real, fs.realpath(root)) ? real : null;
}

/** `fs` seen through the root: every operation on a path outside it fails (or answers false). */
export function confineWorkspace(fs: WorkspaceFs, root: string): WorkspaceFs {
  const refused = <T>(): FsResult<T> => ({ ok: false, reason: outsideRootReason(root) });
  return {
    readDir(dir: string): FsResult<readonly DirEntry[]> {
      const real = resolveInWorkspace(fs, root, dir);
      return real === null ? refused() : fs.readDir(real);
    },
    isDirectory(path: string): boolean {
      const real = resolveInWorkspace(fs, root, path);
      return real !== null && fs.isDirectory(real);
    },
    readFile(path: string, maxBytes?: number): FsResult<Uint8Array> {
      const real = resolveInWorkspace(fs, root, path);
      return real === null ? refused() : fs.readFile(real, maxBytes);
    },
    writeFile(path: string, text: string): FsResult<void> {
      const real = resolveInWorkspace(fs, root, path);
      return real === null ? refused() : fs.writeFile(real, text);
    },
    realpath: (path: string) => fs.realpath(path),
  };
}
