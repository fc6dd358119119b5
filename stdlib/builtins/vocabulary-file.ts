// The vocabulary file of vocabulary_compliance (docs/reference/language.md §10.9): loaded and
// validated as the reference's `_load_vocabulary` does, check by check in the same order with the
// same texts, each refusal raised as `ValueError([message])`.
import { FILE_CONTAINS_MAX_BYTES } from "../files";
import { dictGetStr } from "../values/dict";
import { PyError } from "../values/errors";
import { repr } from "../values/repr";
import { PyDict, type PyValue, typeName } from "../values/value";
import { pySorted } from "./aggregates";
import type { EvalEnv } from "./env";
import { resolveInRoot } from "./file-access";
import { decodeUtf8Strict } from "./utf8-strict";
import { violationList } from "./violation-list";

export interface VocabularyEntry {
  readonly canonical: string;
  readonly reject: readonly string[];
  /** "" when the entry has none. */
  readonly reason: string;
}

const READ_CHUNK_BYTES = 4096;

/** The reference's identifier pattern, `$` included: Python's `$` also matches before a final newline. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*\n?$/;

const ALLOWED_FIELDS: readonly string[] = ["reason", "reject"];

function isIdentifier(v: PyValue): v is string {
  return typeof v === "string" && IDENTIFIER.test(v);
}

function schemaError(message: string): PyError {
  return violationList([`vocabulary.yaml schema error: ${message}`]);
}

/** `os.path.isfile(path)` against the working root; TypeError for what `os.stat` refuses. */
function regularFile(path: PyValue, env: EvalEnv): string | null {
  if (typeof path === "number" || typeof path === "bigint" || typeof path === "boolean") {
    // The reference would stat an open file descriptor; there is none to read here.
    return null;
  }
  if (typeof path !== "string") {
    throw new PyError(
      "TypeError",
      `stat: path should be string, bytes, os.PathLike or integer, not ${typeName(path)}`,
    );
  }
  if (env.files === null) return null;
  const real = resolveInRoot(env.files, path);
  if (real === null || env.files.fs.stat(real)?.isFile !== true) return null;
  return real;
}

/** The file's text as Python's text mode reads it (strict UTF-8, universal newlines). */
function readVocabularyText(path: string, real: string, env: EvalEnv): string {
  const files = env.files;
  const bytes = files?.fs.readFile(real, FILE_CONTAINS_MAX_BYTES + 1) ?? null;
  if (bytes === null || bytes.length > FILE_CONTAINS_MAX_BYTES) {
    const why = bytes === null ? "unreadable" : "larger than 10 MiB";
    throw violationList([`vocabulary.yaml malformed: cannot read ${path}: ${why}`]);
  }
  env.budget.charge(Math.ceil(bytes.length / READ_CHUNK_BYTES));
  const decoded = decodeUtf8Strict(bytes);
  // A decoding error is a ValueError the reference does not catch: the ensure reports it raised.
  if (!decoded.ok) throw new PyError("ValueError", decoded.message);
  return decoded.text.replace(/\r\n?/g, "\n");
}

function validateEntry(canonical: PyValue, entry: PyValue, env: EvalEnv): VocabularyEntry {
  if (!isIdentifier(canonical)) {
    throw schemaError(
      `canonical name ${repr(canonical)} must match identifier syntax (letters, digits, underscore; starts with letter or underscore)`,
    );
  }
  const name = repr(canonical);
  if (!(entry instanceof PyDict)) {
    throw schemaError(`entry for ${name} must be a mapping, got ${typeName(entry)}`);
  }
  const unknown = [...entry.entries.values()]
    .map(([key]) => key)
    .filter((key) => typeof key !== "string" || !ALLOWED_FIELDS.includes(key));
  if (unknown.length > 0) {
    const sorted = repr(pySorted(unknown, undefined, env));
    throw schemaError(
      `entry for ${name} has unknown fields: ${sorted}. Allowed: ${repr([...ALLOWED_FIELDS])}`,
    );
  }
  const reject = dictGetStr(entry, "reject");
  if (!Array.isArray(reject) || reject.length === 0) {
    throw schemaError(`entry for ${name} must have non-empty 'reject' list`);
  }
  const aliases: string[] = [];
  for (const alias of reject as readonly PyValue[]) {
    if (!isIdentifier(alias))
      throw schemaError(`alias ${repr(alias)} in ${name} must match identifier syntax`);
    if (alias === canonical) throw schemaError(`canonical ${name} cannot reject itself`);
    aliases.push(alias);
  }
  const reason = dictGetStr(entry, "reason");
  if (reason !== undefined && reason !== null && typeof reason !== "string") {
    throw schemaError(`reason for ${name} must be a string`);
  }
  return { canonical, reject: aliases, reason: typeof reason === "string" ? reason : "" };
}

/** No duplicate alias, and no alias that is also a canonical name. */
function crossCheck(entries: readonly VocabularyEntry[]): void {
  const canonicals = new Set(entries.map((e) => e.canonical));
  const aliasOf = new Map<string, string>();
  for (const { canonical, reject } of entries) {
    for (const alias of reject) {
      if (canonicals.has(alias)) {
        throw schemaError(`${repr(alias)} is both a canonical and a rejected alias for ${repr(canonical)}`);
      }
      const earlier = aliasOf.get(alias);
      if (earlier !== undefined) {
        throw schemaError(
          `alias ${repr(alias)} is rejected by multiple canonicals (${earlier}, ${canonical})`,
        );
      }
      aliasOf.set(alias, canonical);
    }
  }
}

/**
 * The validated entries of the vocabulary file at `path`, in file order; empty when there is no
 * such regular file inside the working root, or when it is empty or holds only comments.
 */
export function loadVocabulary(path: PyValue, env: EvalEnv): readonly VocabularyEntry[] {
  const real = regularFile(path, env);
  if (real === null) return [];
  const text = readVocabularyText(path as string, real, env);
  if (env.yaml === undefined) throw violationList(["vocabulary.yaml malformed: no YAML loader here"]);
  const loaded = env.yaml(text);
  if (!loaded.ok) throw violationList([`vocabulary.yaml malformed: ${loaded.message}`]);
  if (loaded.value === null) return [];
  if (!(loaded.value instanceof PyDict)) throw schemaError("top-level must be a mapping");
  const entries: VocabularyEntry[] = [];
  for (const [canonical, entry] of loaded.value.entries.values()) {
    env.budget.charge(1);
    entries.push(validateEntry(canonical, entry, env));
  }
  crossCheck(entries);
  return entries;
}
