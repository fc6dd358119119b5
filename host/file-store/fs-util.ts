// Small synchronous file helpers of the file store: durable writes (data flushed before the rename
// that publishes it, then the directory entry flushed) and error-code tests.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { StoreUnwritableError } from "../../interpreter/index";

export function errorCode(e: unknown): string | undefined {
  return e instanceof Error && "code" in e && typeof e.code === "string" ? e.code : undefined;
}

export function unlinkIfPresent(path: string): boolean {
  try {
    fs.unlinkSync(path);
    return true;
  } catch (e) {
    if (errorCode(e) === "ENOENT") return false;
    throw e;
  }
}

/**
 * Writes `text` to a new `<path>.tmp-<pid>-<random>` and flushes it to stable storage; returns the
 * temporary path, to be renamed over `path`. Nothing is left behind when writing fails.
 */
export function writeTemporary(path: string, text: string): string {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;
  const fd = fs.openSync(tmp, "wx");
  try {
    const bytes = Buffer.from(text, "utf8");
    let done = 0;
    while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
    fs.fsyncSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    unlinkIfPresent(tmp);
    // write and fsync errors name no file: name the flow file being written
    if (e instanceof Error && !("path" in e)) Object.assign(e, { path });
    throw e;
  }
  fs.closeSync(fd);
  return tmp;
}

/** Flushes a directory's entries (renames, deletions) to stable storage, where the platform can. */
export function fsyncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, "r");
  } catch {
    return; // e.g. Windows cannot open directories; its renames are flushed with the file
  }
  try {
    fs.fsyncSync(fd);
  } catch (e) {
    const code = errorCode(e);
    if (code !== "EINVAL" && code !== "EPERM" && code !== "EISDIR") throw e;
  } finally {
    fs.closeSync(fd);
  }
}

/** The OS reasons that make a store unwritable, with their usual texts. */
const UNWRITABLE: Readonly<Record<string, string>> = {
  EROFS: "read-only file system",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EFBIG: "file too large",
  ENOTDIR: "not a directory",
};

/**
 * The StoreUnwritableError for a failed write, or null when the error is not one of the reasons
 * above (then it stays an unexpected failure). The path is the one the OS reported, else `path`.
 */
export function unwritableError(e: unknown, path: string): StoreUnwritableError | null {
  if (e instanceof StoreUnwritableError) return e;
  const code = errorCode(e);
  const reason = code === undefined ? undefined : UNWRITABLE[code];
  if (code === undefined || reason === undefined) return null;
  const reported = e instanceof Error && "path" in e && typeof e.path === "string" ? e.path : path;
  return new StoreUnwritableError(reported, code, reason);
}
