// The install record: what every file install changed held before, so that uninstall
// gives back exactly those bytes. One record per project, in $STRATUM_HOME/installs/ (personal,
// never in the repository): for each file its bytes before the first install that changed it
// (null: there was no file), its mode, and a hash of what install left. Uninstall restores the old
// bytes only when the file still hashes to what install left; a file changed since is undone entry
// by entry instead, so later edits are kept. Folders install created are removed when empty. A
// record that is not one stops both commands (it holds the only copy of the original bytes).
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Changes } from "./changes";
import {
  InstallError,
  isJsonObject,
  jsonText,
  NOTHING_CHANGED,
  own,
  parseJsonObject,
  readBytesOrNull,
  reason,
} from "./files";
import { type JsonPath, wrongType } from "./json-shape";

interface RecordedFile {
  /** Base64 of the bytes before install; null: no file. */
  readonly before: string | null;
  readonly mode: number | null;
  /** sha256 of what install left (hex); null: install deleted the file. */
  readonly after: string | null;
}

export interface InstallRecord {
  readonly project: string;
  readonly files: Readonly<Record<string, RecordedFile>>;
  readonly folders: readonly string[];
}

export function recordPath(installsDir: string, projectRoot: string): string {
  return join(installsDir, `${createHash("sha256").update(projectRoot).digest("hex").slice(0, 32)}.json`);
}

function hash(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : createHash("sha256").update(bytes).digest("hex");
}

/**
 * The record of `projectRoot`, or null when there is none. A record that cannot be read, is not
 * one, or names another project is an InstallError naming it (`shown`): install would overwrite
 * the original bytes it keeps, uninstall would delete them.
 */
export function readRecord(path: string, projectRoot: string, shown: string): InstallRecord | null {
  let bytes: Buffer | null;
  try {
    bytes = readBytesOrNull(path);
  } catch (e) {
    throw new InstallError(`cannot read ${shown}: ${reason(e)}. ${NOTHING_CHANGED}`);
  }
  if (bytes === null) return null;
  const value = parseJsonObject(bytes, shown);
  const check: (ok: boolean, at: JsonPath, found: unknown, expected: string) => asserts ok = (
    ok,
    at,
    found,
    expected,
  ) => {
    if (!ok) throw wrongType(shown, at, found, expected);
  };
  const version = own(value, "version");
  check(version === 1, ["version"], version, "1 (an install record of this version)");
  const project = own(value, "project");
  check(project === projectRoot, ["project"], project, `${JSON.stringify(projectRoot)} (this project)`);
  const files = own(value, "files");
  check(isJsonObject(files), ["files"], files, "an object (file → what it held)");
  const folders = own(value, "folders");
  check(Array.isArray(folders), ["folders"], folders, "an array (of folders)");
  const kept: Record<string, RecordedFile> = Object.create(null);
  for (const [file, entry] of Object.entries(files)) {
    check(isJsonObject(entry), ["files", file], entry, "an object");
    const at = (key: string) => ["files", file, key];
    const before = own(entry, "before");
    check(before === null || typeof before === "string", at("before"), before, "base64 text or null");
    const mode = own(entry, "mode");
    check(mode === null || typeof mode === "number", at("mode"), mode, "a number or null");
    const after = own(entry, "after");
    check(after === null || typeof after === "string", at("after"), after, "a sha256 or null");
    kept[file] = { before, mode, after };
  }
  const names: string[] = [];
  for (const [i, folder] of folders.entries()) {
    check(typeof folder === "string", ["folders", i], folder, "a string");
    names.push(folder);
  }
  return { project: projectRoot, files: kept, folders: names };
}

/**
 * The record after an install that planned `changes` and created `folders`: a file already
 * recorded and unchanged since keeps its first `before`; any other changed file is recorded with
 * the bytes it had now. Null when nothing is recorded at all.
 */
export function mergeRecord(
  previous: InstallRecord | null,
  projectRoot: string,
  changes: Changes,
  folders: readonly string[],
): string | null {
  const files: Record<string, RecordedFile> = Object.create(null);
  if (previous !== null) Object.assign(files, previous.files);
  for (const change of changes.changes) {
    const old = files[change.path];
    const keepOld = old !== undefined && old.after === hash(change.before);
    files[change.path] = {
      before: keepOld ? old.before : change.before === null ? null : change.before.toString("base64"),
      mode: keepOld ? old.mode : change.beforeMode,
      after: hash(change.after),
    };
  }
  const allFolders = [...new Set([...(previous?.folders ?? []), ...folders])];
  if (Object.keys(files).length === 0 && allFolders.length === 0) return null;
  return jsonText({ version: 1, project: projectRoot, files, folders: allFolders });
}

/** The bytes to put back for `path`, when the record has it and the file is as install left it. */
export function recordedBefore(
  record: InstallRecord | null,
  path: string,
  current: Uint8Array | null,
): { readonly bytes: Buffer | null; readonly mode: number | null } | undefined {
  const entry =
    record === null ? undefined : Object.hasOwn(record.files, path) ? record.files[path] : undefined;
  if (entry === undefined || entry.after !== hash(current)) return undefined;
  return { bytes: entry.before === null ? null : Buffer.from(entry.before, "base64"), mode: entry.mode };
}
