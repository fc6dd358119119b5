// Confinement of the file builtins to the working root (docs/reference/language.md §10.9 "Working root",
// DIV-FILE-ROOT). Paths are POSIX paths; the host file system is injected (stdlib/files.ts).
import type { FileAccess } from "../files";

/** Lexical normalisation of an absolute POSIX path: removes `.`, `..` and repeated slashes. */
export function normalizeAbsolute(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/**
 * Is the (resolved, absolute) `path` the (resolved, absolute) `root` or below it? The one test of
 * every confinement: the file builtins here, the workspace tools (interpreter/workspace/confine.ts).
 */
export function isInsideRoot(path: string, root: string): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/**
 * The real path that `path` designates when it lies inside the working root, else null (also
 * when it does not exist). The path is made absolute against the root and normalised, then its
 * symbolic links are resolved; only the resolved path is compared with the (resolved) root, so a
 * link escaping the root is refused and nothing outside the root is ever read.
 */
export function resolveInRoot(files: FileAccess, path: string): string | null {
  if (path === "" || path.includes("\0")) return null;
  const absolute = normalizeAbsolute(path.startsWith("/") ? path : `${files.root}/${path}`);
  const realRoot = files.fs.realpath(normalizeAbsolute(files.root));
  if (realRoot === null) return null;
  const real = files.fs.realpath(absolute);
  if (real === null || !isInsideRoot(real, realRoot)) return null;
  return real;
}
