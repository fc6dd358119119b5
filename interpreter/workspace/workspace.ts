// The project files seen by list_workflows, compile_speckit and draft_pipeline (docs/reference/runtime.md §18–20).
// Injected like every other I/O of the core; host/node-workspace.ts is the Node implementation.

export interface DirEntry {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
}

/** A failed file operation: `reason` is a short lowercase text such as "file not found". */
export type FsResult<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly reason: string;
      /** Set when a read was refused for the file's size (see `readFile`'s `maxBytes`). */
      readonly tooLarge?: FileTooLarge;
    };

/** A file refused for its size: its exact size, or (it grew while read) at least `bytes`. */
interface FileTooLarge {
  readonly bytes: number;
  readonly exact: boolean;
}

export interface WorkspaceFs {
  /** Entries directly in `dir` (any order), or a failure (missing, not a directory, unreadable). */
  readDir(dir: string): FsResult<readonly DirEntry[]>;
  /** Is `path` a directory (following symbolic links)? */
  isDirectory(path: string): boolean;
  /**
   * The bytes of a file (following symbolic links). With `maxBytes`, a larger file is refused
   * without being read (a failure with `tooLarge`), so a huge file costs nothing.
   */
  readFile(path: string, maxBytes?: number): FsResult<Uint8Array>;
  /** Writes a file, creating missing parent directories. */
  writeFile(path: string, text: string): FsResult<void>;
  /**
   * The absolute path with symbolic links resolved, like Python's non-strict `Path.resolve()`: a
   * missing tail is appended to the resolved existing prefix (the path itself if nothing exists).
   */
  realpath(path: string): string;
}
