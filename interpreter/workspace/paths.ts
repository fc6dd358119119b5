// POSIX path text for the workspace tools (no I/O): resolving a tool argument against the server's
// working directory, joining a name to a directory, and the way Python's pathlib prints a path as
// given (the `no_tasks` message of docs/reference/runtime.md §19.1).

/** `path` if absolute, else `cwd/path` (not normalised: symbolic links are resolved by the host). */
export function resolveAgainst(cwd: string, path: string): string {
  if (path.startsWith("/")) return path;
  if (path === "" || path === ".") return cwd;
  return joinPath(cwd, path);
}

/** `dir/name` with exactly one separator between them. */
export function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`;
}

/**
 * `str(PurePosixPath(path))`: empty and `.` segments and trailing separators removed, `..` kept,
 * exactly two leading slashes kept (POSIX leaves `//` implementation-defined), `.` for nothing.
 */
export function pathlibText(path: string): string {
  const root = path.startsWith("//") && !path.startsWith("///") ? "//" : path.startsWith("/") ? "/" : "";
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  const text = root + parts.join("/");
  return text === "" ? "." : text;
}
