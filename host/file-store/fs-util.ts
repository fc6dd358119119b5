// Small synchronous file helpers of the file store: durable writes (data flushed before the rename
// that publishes it, then the directory entry flushed) and error-code tests.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";

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
