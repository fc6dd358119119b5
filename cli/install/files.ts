// The small file operations of `install` and `uninstall`: read a text file or nothing, replace a
// file atomically (a temporary file renamed over it, so Claude Code or a running hook never reads a
// half-written file), JSON objects read and written the way Claude Code itself does (JSON.parse /
// JSON.stringify with 2-space indentation and a final newline).
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The file's text, or null when it does not exist. Other read errors are thrown. */
export function readTextOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if (isErrno(e, "ENOENT")) return null;
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

/** Writes `text` to `path` through a temporary file in the same directory; parents are created. */
export function writeFileAtomic(path: string, text: string, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.stratum-${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, mode === undefined ? {} : { mode });
    if (mode !== undefined) chmodSync(tmp, mode); // the umask may have removed bits
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

export type JsonFile =
  | { readonly kind: "missing" }
  /** Not valid JSON, not an object at the top, or not readable as text. */
  | { readonly kind: "unreadable" }
  | { readonly kind: "object"; readonly value: JsonObject };

export function readJsonObject(path: string): JsonFile {
  let text: string | null;
  try {
    text = readTextOrNull(path);
  } catch {
    return { kind: "unreadable" };
  }
  if (text === null) return { kind: "missing" };
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? { kind: "object", value } : { kind: "unreadable" };
  } catch {
    return { kind: "unreadable" };
  }
}

export function writeJson(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
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

/** Deletes the file at `path`; false when it was not there. */
export function removeFile(path: string): boolean {
  if (!exists(path)) return false;
  rmSync(path, { force: true });
  return true;
}
