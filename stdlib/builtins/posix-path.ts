// Python's posixpath.normpath on a str: the lexical normalisation vocabulary_compliance applies to
// each changed file before it reads it and names it in a violation.

export function normpath(path: string): string {
  if (path === "") return ".";
  // POSIX allows one implementation-defined meaning for exactly two leading slashes; Python keeps them.
  const initial = path.startsWith("/") ? (path.startsWith("//") && !path.startsWith("///") ? 2 : 1) : 0;
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    const last = parts[parts.length - 1];
    if (part !== ".." || (initial === 0 && parts.length === 0) || last === "..") parts.push(part);
    else if (parts.length > 0) parts.pop();
  }
  const joined = "/".repeat(initial) + parts.join("/");
  return joined === "" ? "." : joined;
}
