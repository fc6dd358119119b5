// Append-only journal framing: the layer a journaled flow store builds on. A journal is a
// file of frames, one per entry, each written with one write and flushed with one fdatasync:
//
//   offset 0   u32 LE  payload length in bytes
//          4   u32 LE  CRC-32 of the payload
//          8   u32 LE  CRC-32 of bytes 0..7 (so a damaged length is never trusted)
//         12   payload (UTF-8)
//
// Reading returns every intact entry up to the first damaged frame and reports that frame:
//   - torn: the damage reaches the end of the file — an append cut short by a crash (an incomplete
//     header, a length past the end, or a last frame whose checksum does not match: the file's size
//     was extended but not all of its bytes reached the disk). Nothing after it was acknowledged;
//     it is dropped, never half-applied, and may be truncated away under the flow's lock.
//   - corrupt: a damaged frame followed by more data (another frame's bytes): an acknowledged entry
//     changed on disk. It is reported, and never truncated (that would drop acknowledged entries).
// A frame whose header checksum fails cannot say where it ends; it is torn when no intact frame
// starts anywhere after it, corrupt otherwise (appends are serialised under the lock, and a writer
// truncates a torn tail before appending, so a valid frame after damage means the damage is old).
//
// Pure parts (`encodeFrame`, `scanFrames`) work on bytes; the I/O parts are synchronous like the
// rest of the file store and assume the caller holds the flow's lock (lock.ts), except
// `truncateTornTail`, which checks that it does.
import * as fs from "node:fs";
import { dirname } from "node:path";
import { crc32 } from "node:zlib";
import { openRegularFile } from "../regular-file";
import { errorCode, fsyncDirectory, unlinkIfPresent } from "./fs-util";
import { type HeldLock, stillHeld } from "./lock";

export const FRAME_HEADER_BYTES = 12;
/** The longest payload a frame may hold (256 MiB): a longer length is damage, not an entry. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/** One intact entry: where its frame starts and ends in the file, and its payload. */
interface JournalEntry {
  readonly offset: number;
  readonly end: number;
  readonly payload: string;
}

type DamageReason =
  /** Fewer than FRAME_HEADER_BYTES bytes left. */
  | "incomplete header"
  /** The header checksum does not match (the length cannot be trusted). */
  | "header checksum mismatch"
  /** The header is intact but its length is larger than MAX_ENTRY_BYTES. */
  | "length too large"
  /** The header is intact, the payload ends past the end of the file. */
  | "incomplete payload"
  /** The payload's checksum does not match. */
  | "payload checksum mismatch";

interface JournalDamage {
  /** `torn`: a cut-short last append (safe to drop); `corrupt`: damage before other data. */
  readonly kind: "torn" | "corrupt";
  /** Where the damaged frame starts (bytes from the start of the file). */
  readonly offset: number;
  readonly reason: DamageReason;
  /** Bytes from `offset` to the end of the file. */
  readonly bytes: number;
}

export interface JournalScan {
  readonly entries: readonly JournalEntry[];
  /** Where the intact entries end: the offset of the damage, or the file's size. */
  readonly end: number;
  /** The size of what was scanned (the file's size). */
  readonly size: number;
  readonly damage: JournalDamage | null;
}

/**
 * Whether a string holds no lone UTF-16 surrogate (UTF-8 cannot hold one: it would come back as
 * U+FFFD). `String.prototype.isWellFormed` (ES2024, Node 20) where there is one: ~6x faster than
 * the regex `/\p{Cs}/u`, which says the same.
 */
const wellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function"
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (s) => !/\p{Cs}/u.test(s);

/**
 * A frame of the payload: header and UTF-8 bytes, ready for one write. Refuses (RangeError) a
 * payload that would not read back identically: a lone surrogate, or more than MAX_ENTRY_BYTES.
 */
export function encodeFrame(payload: string): Buffer {
  if (!wellFormed(payload)) throw new RangeError("a journal entry cannot hold a lone surrogate");
  const length = Buffer.byteLength(payload, "utf8");
  if (length > MAX_ENTRY_BYTES) {
    throw new RangeError(`a journal entry holds at most ${MAX_ENTRY_BYTES} bytes (got ${length})`);
  }
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + length);
  frame.write(payload, FRAME_HEADER_BYTES, "utf8");
  frame.writeUInt32LE(length, 0);
  frame.writeUInt32LE(crc32(frame.subarray(FRAME_HEADER_BYTES)), 4);
  frame.writeUInt32LE(crc32(frame.subarray(0, 8)), 8);
  return frame;
}

type FrameAt =
  | { readonly ok: true; readonly end: number }
  /** `end`: where the damaged frame says it ends, when its header is intact. */
  | { readonly ok: false; readonly reason: DamageReason; readonly end: number | null };

/** Checks the frame starting at `offset`. */
function frameAt(bytes: Uint8Array, offset: number): FrameAt {
  const left = bytes.length - offset;
  if (left < FRAME_HEADER_BYTES) return { ok: false, reason: "incomplete header", end: null };
  const view = Buffer.from(bytes.buffer, bytes.byteOffset + offset, FRAME_HEADER_BYTES);
  if (crc32(view.subarray(0, 8)) !== view.readUInt32LE(8)) {
    return { ok: false, reason: "header checksum mismatch", end: null };
  }
  const length = view.readUInt32LE(0);
  if (length > MAX_ENTRY_BYTES) return { ok: false, reason: "length too large", end: null };
  const end = offset + FRAME_HEADER_BYTES + length;
  if (end > bytes.length) return { ok: false, reason: "incomplete payload", end };
  const payload = bytes.subarray(offset + FRAME_HEADER_BYTES, end);
  if (crc32(payload) !== view.readUInt32LE(4)) {
    return { ok: false, reason: "payload checksum mismatch", end };
  }
  return { ok: true, end };
}

/** Whether an intact frame starts anywhere in `bytes` after `offset`. */
function intactFrameAfter(bytes: Uint8Array, offset: number): boolean {
  for (let at = offset + 1; at + FRAME_HEADER_BYTES <= bytes.length; at++) {
    if (frameAt(bytes, at).ok) return true;
  }
  return false;
}

const utf8 = new TextDecoder("utf-8", { fatal: false });

/**
 * The intact entries of a journal's bytes, in order, and the first damage. `base` is the file
 * offset of `bytes[0]` (when scanning from a known entry boundary); offsets in the result are file
 * offsets.
 */
export function scanFrames(bytes: Uint8Array, base = 0): JournalScan {
  const entries: JournalEntry[] = [];
  let at = 0;
  while (at < bytes.length) {
    const frame = frameAt(bytes, at);
    if (frame.ok) {
      const payload = utf8.decode(bytes.subarray(at + FRAME_HEADER_BYTES, frame.end));
      entries.push({ offset: base + at, end: base + frame.end, payload });
      at = frame.end;
      continue;
    }
    let torn: boolean;
    if (frame.reason === "incomplete header" || frame.reason === "incomplete payload") torn = true;
    else if (frame.end !== null)
      torn = frame.end === bytes.length; // the last frame, or followed by data
    else torn = !intactFrameAfter(bytes, at);
    return {
      entries,
      end: base + at,
      size: base + bytes.length,
      damage: {
        kind: torn ? "torn" : "corrupt",
        offset: base + at,
        reason: frame.reason,
        bytes: bytes.length - at,
      },
    };
  }
  return { entries, end: base + at, size: base + bytes.length, damage: null };
}

/**
 * Reads a journal from `from` (an entry boundary: 0 or the end of an entry read before) to its
 * end; null when the file does not exist.
 */
export function readJournal(path: string, from = 0): JournalScan | null {
  let fd: number;
  try {
    fd = openRegularFile(path);
  } catch (e) {
    if (errorCode(e) === "ENOENT") return null;
    throw e;
  }
  try {
    const size = fs.fstatSync(fd).size;
    if (from > size) {
      throw new JournalMovedError(path, from, size);
    }
    const bytes = Buffer.allocUnsafe(size - from);
    let done = 0;
    while (done < bytes.length) {
      const n = fs.readSync(fd, bytes, done, bytes.length - done, from + done);
      if (n === 0) break; // shrank meanwhile: scan what was read
      done += n;
    }
    return scanFrames(bytes.subarray(0, done), from);
  } finally {
    fs.closeSync(fd);
  }
}

/** The journal's size is not the one the caller expected: another writer appended or truncated. */
export class JournalMovedError extends Error {
  constructor(
    readonly path: string,
    readonly expectedSize: number,
    /** null: the journal does not exist. */
    readonly actualSize: number | null,
  ) {
    super(
      actualSize === null
        ? `journal ${path} does not exist, ${expectedSize} bytes expected`
        : `journal ${path} is ${actualSize} bytes long, ${expectedSize} expected`,
    );
    this.name = "JournalMovedError";
  }
}

export interface AppendOptions {
  /**
   * The journal's size the caller last saw (0 for a journal that must not exist or be empty):
   * the append is refused with JournalMovedError when the file has another size.
   */
  readonly expectedSize: number;
  /** `data` (default): fdatasync; `full`: fsync (also flushes the modification time). */
  readonly sync?: "data" | "full";
}

export interface Appended {
  /** Where the new frame starts and ends (the journal's new size). */
  readonly offset: number;
  readonly end: number;
  /** The file was created by this append (and its directory flushed). */
  readonly created: boolean;
}

/** An append that left the journal open (appendEntryKeepOpen): the caller owns and closes `fd`. */
export interface AppendedOpen extends Appended {
  readonly fd: number;
}

/**
 * Appends one entry and flushes it: one write and one fdatasync (plus a directory flush when the
 * file is created). The caller holds the flow's lock. When anything fails, the journal is put back
 * as it was (truncated to `expectedSize`, or removed when this append created it; best effort: a
 * reader drops a torn tail anyway) and the error is thrown: the entry was not appended.
 */
export function appendEntry(path: string, payload: string, options: AppendOptions): Appended {
  const { fd, offset, end, created } = appendEntryKeepOpen(path, payload, options);
  fs.closeSync(fd);
  return { offset, end, created };
}

/**
 * appendEntry, leaving the journal open: the caller may append through the returned descriptor
 * again (appendThrough) for as long as it can prove, under the flow's lock, that it is still the
 * file at `path`. On failure nothing stays open.
 */
export function appendEntryKeepOpen(path: string, payload: string, options: AppendOptions): AppendedOpen {
  const frame = encodeFrame(payload);
  const { fd, created } = openForAppend(path, options.expectedSize);
  try {
    const size = fs.fstatSync(fd).size;
    if (size !== options.expectedSize) throw new JournalMovedError(path, options.expectedSize, size);
    try {
      writeAndFlush(fd, frame, size, options.sync);
      if (created) fsyncDirectory(dirname(path));
    } catch (e) {
      undoAppend(path, fd, created, size);
      throw withPath(e, path);
    }
    return { fd, offset: size, end: size + frame.length, created };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/**
 * Appends one entry through `fd`, a descriptor of the journal kept open from an earlier append
 * that the caller, holding the flow's lock, has checked to be the file at `path` and to be
 * `size` bytes long. One write and one fdatasync. When anything fails, the journal is cut back to
 * `size` (best effort) and the error thrown; `fd` stays open either way (the caller closes it).
 */
export function appendThrough(
  fd: number,
  path: string,
  payload: string,
  size: number,
  sync?: "data" | "full",
): Appended {
  const frame = encodeFrame(payload);
  try {
    writeAndFlush(fd, frame, size, sync);
  } catch (e) {
    try {
      fs.ftruncateSync(fd, size);
    } catch {
      // what matters is why the append failed
    }
    throw withPath(e, path);
  }
  return { offset: size, end: size + frame.length, created: false };
}

function writeAndFlush(fd: number, frame: Buffer, size: number, sync: "data" | "full" | undefined): void {
  let done = 0;
  while (done < frame.length) done += fs.writeSync(fd, frame, done, frame.length - done, size + done);
  if (sync === "full") fs.fsyncSync(fd);
  else fs.fdatasyncSync(fd);
}

/** write and fsync errors name no file: name the journal. */
function withPath(e: unknown, path: string): unknown {
  if (e instanceof Error && !("path" in e)) Object.assign(e, { path });
  return e;
}

function undoAppend(path: string, fd: number, created: boolean, size: number): void {
  try {
    if (created) unlinkIfPresent(path);
    else fs.ftruncateSync(fd, size);
  } catch {
    // what matters is why the append failed
  }
}

/** Opens the journal for writing; creates it only when the caller expects an empty journal. */
function openForAppend(path: string, expectedSize: number): { fd: number; created: boolean } {
  try {
    return { fd: openForWriting(path), created: false };
  } catch (e) {
    if (errorCode(e) !== "ENOENT") throw e;
    if (expectedSize !== 0) throw new JournalMovedError(path, expectedSize, null);
  }
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL;
  return { fd: fs.openSync(path, flags, 0o644), created: true };
}

/**
 * Drops a torn tail that `scan` reported: truncates the journal to `scan.end` and flushes it.
 * Only under the flow's lock: refuses (throws) unless `lock`'s file still holds this process's
 * content, unless the damage is torn (corruption is never truncated away), and unless the file
 * still has the size that was scanned. Returns the journal's new size.
 */
export function truncateTornTail(path: string, scan: JournalScan, lock: HeldLock): number {
  const damage = scan.damage;
  if (damage === null) return scan.size;
  if (damage.kind !== "torn") {
    throw new Error(`journal ${path} is corrupt at byte ${damage.offset} (${damage.reason}); not truncated`);
  }
  if (!stillHeld(lock)) throw new Error(`the lock ${lock.path} is not held; journal ${path} not truncated`);
  const fd = openForWriting(path);
  try {
    const size = fs.fstatSync(fd).size;
    if (size !== scan.size) throw new JournalMovedError(path, scan.size, size);
    fs.ftruncateSync(fd, scan.end);
    fs.fdatasyncSync(fd);
    return scan.end;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Opens an existing journal for writing without ever blocking: O_NONBLOCK makes a FIFO with no
 * reader fail (ENXIO) instead of waiting, and anything but a regular file is refused.
 */
function openForWriting(path: string): number {
  const fd = fs.openSync(path, fs.constants.O_WRONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    if (!fs.fstatSync(fd).isFile()) throw new Error(`${path}: not a regular file`);
    return fd;
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}
