// Reading a spec file or standard input as text. A spec is UTF-8 (docs/reference/language.md §1.1): bytes that are
// not valid UTF-8 make the input unreadable (we do not guess, and do not check a text with
// replacement characters the author never wrote); the failure names the line and column of the
// first bad byte. A UTF-8 byte order mark is dropped. Only a regular file is read, opened without
// blocking: a FIFO, socket or device is "not a regular file (a FIFO)" (host/regular-file.ts).
// Nothing over the spec size limit is read (YAML-TOO-LARGE): a file is refused by its size, standard
// input after the limit's worth of bytes.
import {
  type CheckOptions,
  type CheckResult,
  checkSpec,
  MAX_SPEC_BYTES,
  oversizedSpec,
  type SpecSize,
} from "../../checker/index";
import { notRegularReason, readRegularFileWithin } from "../../host/index";
import type { CliHost } from "../command-context";

export type ReadResult =
  | { readonly ok: true; readonly text: string; readonly oversized?: undefined }
  /** Over the size limit: refused unread (check it with checkRead, which gives YAML-TOO-LARGE). */
  | { readonly ok: true; readonly text?: undefined; readonly oversized: SpecSize }
  | {
      readonly ok: false;
      /** Why, in a few words: `file not found`, `not valid UTF-8 (byte 0xff at line 2, column 5)`. */
      readonly reason: string;
      /** Where the problem is (1:1 unless the bytes are not valid UTF-8). */
      readonly line: number;
      readonly column: number;
    };

export function readSpecFile(path: string): ReadResult {
  let bytes: Uint8Array;
  try {
    const read = readRegularFileWithin(path, MAX_SPEC_BYTES);
    if (!read.ok) return { ok: true, oversized: { bytes: read.size, exact: read.exact } };
    bytes = read.bytes;
  } catch (e) {
    return { ok: false, reason: ioReason(e), line: 1, column: 1 };
  }
  return decodeSpec(bytes);
}

/** Standard input as a spec: reading stops after the size limit's worth of bytes. */
export async function readSpecStdin(host: CliHost): Promise<ReadResult> {
  const bytes = await host.readStdin(MAX_SPEC_BYTES);
  if (bytes.length > MAX_SPEC_BYTES) return { ok: true, oversized: { bytes: MAX_SPEC_BYTES, exact: false } };
  return decodeSpec(bytes);
}

/** checkSpec of what was read (YAML-TOO-LARGE for an input refused unread). */
export function checkRead(read: Extract<ReadResult, { ok: true }>, options: CheckOptions = {}): CheckResult {
  return read.oversized !== undefined ? oversizedSpec(read.oversized) : checkSpec(read.text, options);
}

export function decodeSpec(bytes: Uint8Array): ReadResult {
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    const bad = firstInvalidUtf8(bytes);
    const before = new TextDecoder("utf-8").decode(bytes.subarray(0, bad));
    const lines = before.split(/\r\n|\r|\n/);
    const line = lines.length;
    const column = [...(lines[lines.length - 1] ?? "")].length + 1;
    const hex = (bytes[bad] ?? 0).toString(16).padStart(2, "0");
    return {
      ok: false,
      reason: `not valid UTF-8 (byte 0x${hex} at line ${line}, column ${column})`,
      line,
      column,
    };
  }
}

/** The index of the first byte that does not belong to a well-formed UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b < 0x80) need = 0;
    else if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0; // no overlong forms
      if (b === 0xed) hi = 0x9f; // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f; // nothing above U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      const min = k === 1 ? lo : 0x80;
      const max = k === 1 ? hi : 0xbf;
      if (c < min || c > max) return i;
    }
    i += need + 1;
  }
  return bytes.length;
}

/** A short reason for a failed file-system call, without Node's `, open '<path>'` tail. */
export function ioReason(e: unknown): string {
  const notRegular = notRegularReason(e);
  if (notRegular !== null) return notRegular;
  const code = (e as NodeJS.ErrnoException | null)?.code;
  switch (code) {
    case "ENOENT":
      return "file not found";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory";
    case "ENOTDIR":
      return "not a directory";
  }
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/, \w+ '.*'$/s, "");
}
