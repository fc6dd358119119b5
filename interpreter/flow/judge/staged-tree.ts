// The files a deterministic predicate sees (docs/reference/runtime.md §25.3): `artifacts/<name>.txt`
// for each artifact the caller hands in, and `modified/<path>` for each listed workspace file, read
// through the flow's file access (confined to its working root). The reference copies these into a
// staging directory first; the deterministic tier reads them in place, which gives the same
// answers without writing anything, and the verifier tier gets a copy of them (t2.ts).
import { isInsideRoot, resolveInRoot } from "../../../stdlib/builtins/file-access";
import type { FileAccess, FileStat, HostFileSystem } from "../../../stdlib/files";

/** The virtual root the predicates' relative paths resolve against. */
const ROOT = "/staged";
const ARTIFACTS = `${ROOT}/artifacts/`;
const MODIFIED = `${ROOT}/modified/`;

type Entry =
  | { readonly kind: "text"; readonly bytes: Uint8Array }
  | { readonly kind: "workspace"; readonly rel: string };

export class StagedTree implements HostFileSystem {
  private readonly entries = new Map<string, Entry>();
  /** Paths a predicate reached that lie outside both buckets, relative to the staged root. */
  readonly outside: string[] = [];

  constructor(
    artifacts: ReadonlyMap<string, string>,
    modifiedFiles: readonly string[],
    private readonly workspace: FileAccess | null,
  ) {
    const encoder = new TextEncoder();
    for (const [name, text] of artifacts) {
      this.entries.set(`${ARTIFACTS}${name}.txt`, { kind: "text", bytes: encoder.encode(text) });
    }
    for (const rel of modifiedFiles) {
      this.entries.set(`${MODIFIED}${rel.split("\\").join("/")}`, { kind: "workspace", rel });
    }
  }

  /** What the file builtins are given. */
  access(): FileAccess {
    return { root: ROOT, fs: this };
  }

  realpath(path: string): string | null {
    if (path === ROOT) return ROOT;
    if (!isInsideRoot(path, ARTIFACTS) && !isInsideRoot(path, MODIFIED)) {
      this.outside.push(path.startsWith(`${ROOT}/`) ? path.slice(ROOT.length + 1) : path);
    }
    return this.entries.has(path) ? path : null;
  }

  stat(path: string): FileStat | null {
    const entry = this.entries.get(path);
    if (entry === undefined) return null;
    if (entry.kind === "text") return { isFile: true, size: entry.bytes.length };
    const real = this.workspaceFile(entry.rel);
    return real === null || this.workspace === null ? null : this.workspace.fs.stat(real);
  }

  readFile(path: string, maxBytes: number): Uint8Array | null {
    const entry = this.entries.get(path);
    if (entry === undefined) return null;
    if (entry.kind === "text") return entry.bytes.subarray(0, maxBytes);
    const real = this.workspaceFile(entry.rel);
    return real === null || this.workspace === null ? null : this.workspace.fs.readFile(real, maxBytes);
  }

  /** Whether `rel` (`artifacts/…` or `modified/…`, normalized) is a file of the tree. */
  has(rel: string): boolean {
    return this.stat(`${ROOT}/${rel}`) !== null;
  }

  /** The tree's files and their bytes (at most `maxBytes` each), for a verifier that reads a copy. */
  files(maxBytes: number): { path: string; bytes: Uint8Array }[] {
    const out: { path: string; bytes: Uint8Array }[] = [];
    for (const path of this.entries.keys()) {
      const bytes = this.readFile(path, maxBytes);
      if (bytes !== null) out.push({ path: path.slice(ROOT.length + 1), bytes });
    }
    return out;
  }

  private workspaceFile(rel: string): string | null {
    return this.workspace === null ? null : resolveInRoot(this.workspace, rel);
  }
}
