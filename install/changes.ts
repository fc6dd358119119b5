// All of an install or uninstall as one plan: every file is read and every JSON file
// parsed before anything is written, so an invalid file stops the command with nothing changed;
// then the planned files are written (each atomically), and a failure part-way puts back the files
// already written. The plan also knows which folders it created, for the install record. A file that
// cannot be read stops the command naming it; a planned write goes through write-target.ts (a link
// is edited at its target inside its root, never replaced; anything else is refused).
import { rmdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import {
  exists,
  InstallError,
  modeOrNull,
  NOTHING_CHANGED,
  readBytesOrNull,
  reason,
  writeFileAtomic,
} from "./files";
import { writeTarget } from "./write-target";

export interface FileChange {
  readonly path: string;
  /** The bytes on disk when planned; null: no file. */
  readonly before: Buffer | null;
  readonly beforeMode: number | null;
  /** What the file becomes; null: deleted. */
  readonly after: Buffer | null;
  /** The mode of the written file; undefined: the old file's, else the default. */
  readonly mode: number | undefined;
  /** Where the bytes are written: `path`, or the target of the link `path` is. */
  readonly target: string;
}

export interface PlanPlaces {
  /** The folders writes must stay in (project, home, STRATUM_HOME), links resolved. */
  readonly roots: readonly string[];
  /** A path as messages show it. */
  readonly show: (path: string) => string;
}

export class Changes {
  private readonly files = new Map<string, FileChange>();
  private readonly cache = new Map<string, Buffer | null>();
  private readonly trees: string[] = [];

  constructor(private readonly places: PlanPlaces = { roots: [], show: (path) => path }) {}

  /** The file's bytes as the plan has them (a planned change, else the disk). */
  read(path: string): Buffer | null {
    const planned = this.files.get(path);
    if (planned !== undefined) return planned.after;
    return this.disk(path);
  }

  /**
   * The file's bytes on disk when first read (null: no file); a file that cannot be read (a
   * directory, a FIFO, no permission) is an InstallError naming it.
   */
  disk(path: string): Buffer | null {
    if (!this.cache.has(path)) {
      try {
        this.cache.set(path, readBytesOrNull(path));
      } catch (e) {
        throw new InstallError(`cannot read ${this.places.show(path)}: ${reason(e)}. ${NOTHING_CHANGED}`);
      }
    }
    return this.cache.get(path) ?? null;
  }

  /** Plans `path` to hold `after` (null: no file); false when that is what it holds already. */
  set(path: string, after: string | Uint8Array | null, mode?: number): boolean {
    const data = after === null ? null : Buffer.from(after);
    const current = this.read(path);
    const previous = this.files.get(path);
    if (sameBytes(current, data) && (mode === undefined || data === null || modeOrNull(path) === mode))
      return false;
    const before = previous === undefined ? current : previous.before;
    const beforeMode = previous === undefined ? modeOrNull(path) : previous.beforeMode;
    const target = writeTarget(path, this.places.roots, this.places.show(path), data === null);
    this.files.set(path, { path, before, beforeMode, after: data, mode, target });
    return true;
  }

  /** Makes the planned change of `path` the first one written. */
  first(path: string): void {
    const change = this.files.get(path);
    if (change === undefined) return;
    const rest = [...this.files].filter(([p]) => p !== path);
    this.files.clear();
    this.files.set(path, change);
    for (const [p, c] of rest) this.files.set(p, c);
  }

  /** Plans the removal of a whole folder (a skill folder), after every file change. */
  removeTree(dir: string): void {
    this.trees.push(dir);
  }

  get changes(): readonly FileChange[] {
    return [...this.files.values()].filter((c) => !sameBytes(c.before, c.after) || c.mode !== undefined);
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  /**
   * Writes everything; on a failure the files already written get their old bytes back, the
   * folders created are removed, and the error is thrown. Answers the folders it created
   * (deepest first).
   */
  apply(): string[] {
    const created = this.foldersToCreate();
    const done: FileChange[] = [];
    let current = "";
    try {
      for (const change of this.changes) {
        current = change.path;
        put(change.target, change.after, change.mode);
        done.push(change);
      }
    } catch (e) {
      for (const change of done.reverse()) {
        try {
          put(change.target, change.before, change.beforeMode ?? undefined);
        } catch {
          // best effort: the original error is the one to report
        }
      }
      removeEmptyFolders(created);
      throw new InstallError(`cannot write ${current}: ${reason(e)}. ${NOTHING_CHANGED}`);
    }
    for (const dir of this.trees) rmSync(dir, { recursive: true, force: true });
    return created;
  }

  /** The missing ancestors of the files to be written, deepest first. */
  foldersToCreate(): string[] {
    const missing = new Set<string>();
    for (const change of this.changes) {
      if (change.after === null) continue;
      for (let dir = dirname(change.path); !missing.has(dir) && !exists(dir); dir = dirname(dir)) {
        missing.add(dir);
        if (dirname(dir) === dir) break;
      }
    }
    return [...missing].sort((a, b) => b.length - a.length);
  }
}

function put(path: string, data: Buffer | null, mode: number | undefined): void {
  if (data === null) rmSync(path, { force: true });
  else writeFileAtomic(path, data, mode);
}

/** Removes each folder that is empty (deepest first); others stay. */
export function removeEmptyFolders(dirs: readonly string[]): void {
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(dir);
    } catch {
      // not empty, or gone already
    }
  }
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return Buffer.compare(a, b) === 0;
}
