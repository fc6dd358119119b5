// An in-memory WorkspaceFs for unit tests: absolute POSIX paths, files as text or bytes, optional
// failures per path (e.g. "permission denied"), and a record of writes.
import type { DirEntry, FsResult, WorkspaceFs } from "../../../interpreter/workspace/workspace";

export type MemoryEntry = string | Uint8Array | { readonly fail: string };

export class MemoryWorkspace implements WorkspaceFs {
  readonly files = new Map<string, MemoryEntry>();
  readonly dirs = new Set<string>(["/"]);
  /** Paths whose writes fail, with the reason. */
  readonly writeFailures = new Map<string, string>();
  /** Symbolic links of directories: link path → target path. */
  readonly links = new Map<string, string>();

  constructor(entries: Readonly<Record<string, MemoryEntry>> = {}, dirs: readonly string[] = []) {
    for (const [path, content] of Object.entries(entries)) this.addFile(path, content);
    for (const dir of dirs) this.addDir(dir);
  }

  addFile(path: string, content: MemoryEntry): void {
    this.files.set(path, content);
    this.addDir(parent(path));
  }

  addDir(path: string): void {
    for (let p = path; p !== "/" && p !== ""; p = parent(p)) this.dirs.add(p);
  }

  readDir(dir: string): FsResult<readonly DirEntry[]> {
    const d = this.realpath(dir);
    if (!this.dirs.has(d))
      return { ok: false, reason: this.files.has(d) ? "not a directory" : "file not found" };
    const entries: DirEntry[] = [];
    for (const path of [...this.files.keys(), ...this.dirs]) {
      if (path !== d && parent(path) === d) {
        entries.push({
          name: path.slice(d.length + (d === "/" ? 0 : 1)),
          isFile: this.files.has(path),
          isDirectory: this.dirs.has(path),
        });
      }
    }
    // Any order: reversed so that callers must sort.
    return { ok: true, value: entries.reverse() };
  }

  isDirectory(path: string): boolean {
    return this.dirs.has(this.realpath(path));
  }

  readFile(path: string): FsResult<Uint8Array> {
    const p = this.realpath(path);
    if (this.dirs.has(p)) return { ok: false, reason: "is a directory" };
    const entry = this.files.get(p);
    if (entry === undefined) return { ok: false, reason: "file not found" };
    if (typeof entry === "string") return { ok: true, value: new TextEncoder().encode(entry) };
    if (entry instanceof Uint8Array) return { ok: true, value: entry };
    return { ok: false, reason: entry.fail };
  }

  writeFile(path: string, text: string): FsResult<void> {
    const failure = this.writeFailures.get(path);
    if (failure !== undefined) return { ok: false, reason: failure };
    this.addFile(path, text);
    return { ok: true, value: undefined };
  }

  realpath(path: string): string {
    const parts: string[] = [];
    for (const part of path.split("/")) {
      if (part === "" || part === ".") continue;
      if (part === "..") parts.pop();
      else parts.push(part);
    }
    let p = `/${parts.join("/")}`;
    for (const [link, target] of this.links) {
      if (p === link || p.startsWith(`${link}/`)) p = target + p.slice(link.length);
    }
    return p;
  }
}

function parent(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}
