// The file system as the file builtins see it (docs/reference/language.md §10.9 "Working root"). The core never
// touches the disk itself: a host (CLI, MCP server, tests) injects an implementation.

export interface FileStat {
  readonly isFile: boolean;
  readonly size: number;
}

/** Minimal host file system. Paths passed in are absolute and already normalised. */
export interface HostFileSystem {
  /** Resolves symbolic links; null when the path does not exist. */
  realpath(path: string): string | null;
  stat(path: string): FileStat | null;
  /** Reads at most `maxBytes` bytes; null when the file cannot be read. */
  readFile(path: string, maxBytes: number): Uint8Array | null;
}

/** What an evaluation may touch outside itself. `null` files: file builtins see no files. */
export interface FileAccess {
  readonly root: string;
  readonly fs: HostFileSystem;
}

export const FILE_CONTAINS_MAX_BYTES = 10 * 1024 * 1024;
