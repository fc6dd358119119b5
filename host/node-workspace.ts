// The Node implementation of the project files seen by list_workflows, compile_speckit and
// draft_pipeline (interpreter/workspace/workspace.ts): synchronous node:fs calls, failures as short
// lowercase reasons, symbolic links followed. Files are read and written only when they are regular
// files, without ever blocking (host/regular-file.ts); confinement to the workspace root is the
// core's (interpreter/workspace/confine.ts).
import * as fs from "node:fs";
import { basename, dirname, join } from "node:path";
import type { DirEntry, FsResult, WorkspaceFs } from "../interpreter/index";
import { notRegularReason, readRegularFile, readRegularFileWithin, writeRegularFile } from "./regular-file";

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: "file not found",
  ENOTDIR: "not a directory",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "file name too long",
  ENOSPC: "no space left on device",
  EROFS: "read-only file system",
};

function reasonOf(error: unknown): string {
  const notRegular = notRegularReason(error);
  if (notRegular !== null) return notRegular;
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === "string" ? REASONS[code] : undefined) ?? "i/o error";
}

function fail<T>(error: unknown): FsResult<T> {
  return { ok: false, reason: reasonOf(error) };
}

export const nodeWorkspace: WorkspaceFs = {
  readDir(dir: string): FsResult<readonly DirEntry[]> {
    try {
      const entries = fs.readdirSync(dir, { withFileTypes: true }).map((entry): DirEntry => {
        // A symbolic link counts as what it points at (a broken one as neither).
        const target = entry.isSymbolicLink()
          ? fs.statSync(join(dir, entry.name), { throwIfNoEntry: false })
          : entry;
        return {
          name: entry.name,
          isFile: target?.isFile() ?? false,
          isDirectory: target?.isDirectory() ?? false,
        };
      });
      return { ok: true, value: entries };
    } catch (error) {
      return fail(error);
    }
  },

  isDirectory(path: string): boolean {
    try {
      return fs.statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
    } catch {
      return false;
    }
  },

  readFile(path: string, maxBytes?: number): FsResult<Uint8Array> {
    try {
      if (maxBytes === undefined) return { ok: true, value: new Uint8Array(readRegularFile(path)) };
      const read = readRegularFileWithin(path, maxBytes);
      if (read.ok) return { ok: true, value: new Uint8Array(read.bytes) };
      const size = `${read.exact ? "" : "more than "}${read.size} bytes`;
      return {
        ok: false,
        reason: `file too large (${size}; the limit is ${maxBytes} bytes)`,
        tooLarge: { bytes: read.size, exact: read.exact },
      };
    } catch (error) {
      return fail(error);
    }
  },

  writeFile(path: string, text: string): FsResult<void> {
    try {
      fs.mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      // EEXIST from a recursive mkdir: some component of the parent path is a file.
      return (error as { code?: unknown }).code === "EEXIST"
        ? { ok: false, reason: "not a directory" }
        : fail(error);
    }
    try {
      writeRegularFile(path, text);
      return { ok: true, value: undefined };
    } catch (error) {
      return fail(error);
    }
  },

  realpath(path: string): string {
    return realpathLenient(path);
  },
};

/**
 * Python's `Path.resolve()` (non-strict): symbolic links resolved in the longest existing prefix,
 * the missing rest appended with `.` and `..` applied as text.
 */
export function realpathLenient(path: string): string {
  const missing: string[] = [];
  let existing = path;
  for (;;) {
    try {
      const resolved = fs.realpathSync.native(existing);
      return missing.reduceRight((acc, name) => applySegment(acc, name), resolved);
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      missing.push(basename(existing));
      existing = parent;
    }
  }
}

function applySegment(dir: string, name: string): string {
  if (name === "" || name === ".") return dir;
  if (name === "..") return dirname(dir);
  return join(dir, name);
}
