// The small file operations of `install` and `uninstall`: read a file or nothing, replace a file
// atomically (a temporary file renamed over it, so Claude Code or a running hook never reads a
// half-written file; the old file's mode is kept), JSON objects read strictly (a file that is not
// UTF-8 JSON with an object at the top is an error naming the file and the place, never `{}`) and
// written the way Claude Code itself does (JSON.stringify with 2-space indentation, final newline).
import { chmodSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { readRegularFile } from "../host/index";

/** A failure that ends the command with exit 1 and this message on standard error. */
export class InstallError extends Error {}

export function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The file's bytes, or null when it does not exist. Other read errors are thrown. */
export function readBytesOrNull(path: string): Buffer | null {
  try {
    return readRegularFile(path); // never blocks: a FIFO is an error, not a hang
  } catch (e) {
    if (isErrno(e, "ENOENT") || isErrno(e, "ENOTDIR")) return null;
    throw e;
  }
}

/** The file's text, or null when it does not exist. Other read errors are thrown. */
export function readTextOrNull(path: string): string | null {
  const bytes = readBytesOrNull(path);
  return bytes === null ? null : bytes.toString("utf8");
}

/** The permission bits of the file, or null when it does not exist. */
export function modeOrNull(path: string): number | null {
  try {
    return statSync(path).mode & 0o7777;
  } catch (e) {
    if (isErrno(e, "ENOENT") || isErrno(e, "ENOTDIR")) return null;
    throw e;
  }
}

export function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (e) {
    if (isErrno(e, "ENOENT") || isErrno(e, "ENOTDIR")) return false;
    throw e;
  }
}

/**
 * Writes `data` to `path` through a temporary file in the same directory; parents are created.
 * Without `mode`, an existing file keeps its mode (~/.claude.json is private to its owner).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const keep = mode ?? modeOrNull(path) ?? undefined;
  const tmp = `${path}.stratum-${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data, keep === undefined ? {} : { mode: keep });
    if (keep !== undefined) chmodSync(tmp, keep); // the umask may have removed bits
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** A JSON object as JSON.parse returns it (user keys, so only read through `Object.hasOwn`). */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as UTF-8 text; an InstallError naming `shown` when they are not UTF-8. */
export function decodeText(bytes: Uint8Array, shown: string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new InstallError(`${shown} is not UTF-8 text. ${NOTHING_CHANGED}`);
  }
}

export const NOTHING_CHANGED = "Nothing was changed; fix or move the file and run the command again.";

/**
 * The JSON object in `bytes` (the file `shown`). Anything else — not UTF-8, not JSON, not an
 * object at the top — is an InstallError that names the file and, for a syntax error, the line
 * and column: overwriting such a file would throw away whatever the user has in it.
 */
export function parseJsonObject(bytes: Uint8Array, shown: string): JsonObject {
  const text = decodeText(bytes, shown);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new InstallError(`${shown} is not valid JSON: ${syntaxError(text, reason(e))}. ${NOTHING_CHANGED}`);
  }
  if (!isJsonObject(value))
    throw new InstallError(`${shown} does not hold a JSON object at the top. ${NOTHING_CHANGED}`);
  return value;
}

/** V8's message without its offset, and the place as `line L, column C` (1-based, characters). */
function syntaxError(text: string, message: string): string {
  const match = / in JSON at position (\d+)/.exec(message);
  const offset = match === null ? text.length : Number(match[1]);
  const what = (
    match === null ? message.replace(/ JSON input$/, " of the text") : message.slice(0, match.index)
  )
    .replace(/^Unexpected end of the text$/, "unexpected end of the text")
    .replace(/^./, (c) => c.toLowerCase());
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = Array.from(before.slice(before.lastIndexOf("\n") + 1)).length + 1;
  return `${what} at line ${line}, column ${column}`;
}

/** The text a JSON file of ours is written with. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** `value[key]` for an own key only (user data never reaches the prototype). */
export function own(value: JsonObject, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

export function isErrno(e: unknown, code: string): boolean {
  return e instanceof Error && (e as NodeJS.ErrnoException).code === code;
}

/** The elements of a JSON array file; none when it is missing, unreadable or not an array. */
export function readJsonFileArray(path: string): readonly unknown[] {
  try {
    const text = readTextOrNull(path);
    const value: unknown = text === null ? [] : JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}
