// Reading a file by path without ever blocking on it: the path is opened with
// O_NONBLOCK (so a FIFO without a writer does not block the open), the open descriptor is checked
// with fstat (race-free: it is the object that will be read, not whatever the path named a moment
// earlier), and anything but a regular file is refused before a single byte is read. Every read of
// a file named by a user, a tool argument or a directory listing in host/ and cli/ goes through
// here; standard input (`-`) is not a path and is read as a stream elsewhere.
import * as fs from "node:fs";

/**
 * Thrown for a path that exists but is not a regular file; `message` is the short reason ("is a
 * directory" as before for a directory, else "not a regular file (a FIFO)" and the like).
 */
class NotRegularFileError extends Error {
  readonly code: string;
  constructor(readonly kind: string) {
    super(kind === "a directory" ? "is a directory" : `not a regular file (${kind})`);
    this.code = kind === "a directory" ? "EISDIR" : "ENOTREG";
    this.name = "NotRegularFileError";
  }
}

/** What a non-regular file is, for messages: "a FIFO", "a directory", "a socket", … */
function fileKind(stats: fs.Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return "not a file";
}

const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/**
 * Opens `path` for reading without blocking and returns the descriptor of a regular file (symbolic
 * links followed). Throws the open's errno error (ENOENT, EACCES, ENXIO for a socket, …) or a
 * NotRegularFileError; the descriptor is closed on every failure.
 */
export function openRegularFile(path: string): number {
  const fd = fs.openSync(path, fs.constants.O_RDONLY | O_NONBLOCK);
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(fileKind(stats));
    return fd;
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/**
 * The bytes of a regular file, at most `maxBytes` of them (default: all). Throws like
 * openRegularFile, or the read's error.
 */
export function readRegularFile(path: string, maxBytes = Number.POSITIVE_INFINITY): Buffer {
  const fd = openRegularFile(path);
  try {
    return readOpenFile(fd, maxBytes);
  } finally {
    fs.closeSync(fd);
  }
}

/** At most `maxBytes` bytes of an open file, from its current position. */
function readOpenFile(fd: number, maxBytes: number): Buffer {
  // Chunked, so that a small file does not cost a maxBytes allocation.
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < maxBytes) {
    const chunk = Buffer.alloc(Math.min(65536, maxBytes - length));
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    length += n;
  }
  return Buffer.concat(chunks, length);
}

/** What readRegularFileWithin read: the bytes, or the size of a file over the limit. */
export type BoundedRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | {
      readonly ok: false;
      /** The file's size, or (when it grew while being read) the bytes read so far. */
      readonly size: number;
      /** False when the file grew while being read: it has at least `size` bytes. */
      readonly exact: boolean;
    };

/**
 * The bytes of a regular file of at most `limit` bytes. A larger file is refused by its size
 * (fstat of the open file) without reading a byte of it; one that grows past the limit while being
 * read is refused after `limit + 1` bytes. Throws like readRegularFile.
 */
export function readRegularFileWithin(path: string, limit: number): BoundedRead {
  const fd = openRegularFile(path);
  try {
    const size = fs.fstatSync(fd).size;
    if (size > limit) return { ok: false, size, exact: true };
    const bytes = readOpenFile(fd, limit + 1);
    return bytes.length > limit ? { ok: false, size: bytes.length, exact: false } : { ok: true, bytes };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `text` to `path` (created if missing, else truncated), refusing anything that is not a
 * regular file: opened with O_NONBLOCK and without O_TRUNC (a FIFO without a reader fails with
 * ENXIO instead of blocking; one with a reader is refused by fstat before anything is written),
 * then truncated and written. Symbolic links are followed.
 */
export function writeRegularFile(path: string, text: string, mode = 0o666): void {
  const fd = fs.openSync(path, fs.constants.O_WRONLY | fs.constants.O_CREAT | O_NONBLOCK, mode);
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(fileKind(stats));
    fs.ftruncateSync(fd, 0);
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
  } finally {
    fs.closeSync(fd);
  }
}

/** The short reason of a NotRegularFileError or of ENXIO (a socket or a device with no peer). */
export function notRegularReason(e: unknown): string | null {
  if (e instanceof NotRegularFileError) return e.message;
  if ((e as { code?: unknown } | null)?.code === "ENXIO")
    return "not a regular file (no such device or address)";
  return null;
}
