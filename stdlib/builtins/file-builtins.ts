// file_exists and file_contains (docs/reference/language.md §10.9 "Working root", DIV-FILE-ROOT).
import { FILE_CONTAINS_MAX_BYTES } from "../files";
import { typeError } from "../values/errors";
import { cpIndexOf } from "../values/strings";
import { type PyValue, typeName } from "../values/value";
import type { EvalEnv } from "./env";
import { resolveInRoot } from "./file-access";

const READ_CHUNK_BYTES = 4096;

function requirePath(builtin: string, path: PyValue): string {
  if (typeof path !== "string") throw typeError(`${builtin}() argument must be str, not ${typeName(path)}`);
  return path;
}

export function fileExists(path: PyValue, env: EvalEnv): boolean {
  const p = requirePath("file_exists", path);
  if (env.files === null) return false;
  const real = resolveInRoot(env.files, p);
  if (real === null) return false;
  return env.files.fs.stat(real)?.isFile === true;
}

/** The file's text (invalid UTF-8 → U+FFFD, a BOM kept as U+FEFF), or null when unreadable. */
function readText(path: string, env: EvalEnv): string | null {
  const files = env.files;
  if (files === null) return null;
  const real = resolveInRoot(files, path);
  if (real === null) return null;
  const stat = files.fs.stat(real);
  if (stat === null || !stat.isFile || stat.size > FILE_CONTAINS_MAX_BYTES) return null;
  env.budget.charge(Math.ceil(stat.size / READ_CHUNK_BYTES));
  // One byte more than the limit tells a file that grew past it since the stat.
  const bytes = files.fs.readFile(real, FILE_CONTAINS_MAX_BYTES + 1);
  if (bytes === null || bytes.length > FILE_CONTAINS_MAX_BYTES) return null;
  if (bytes.length > stat.size) env.budget.charge(Math.ceil((bytes.length - stat.size) / READ_CHUNK_BYTES));
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

export function fileContains(path: PyValue, needle: PyValue, env: EvalEnv): boolean {
  const text = readText(requirePath("file_contains", path), env);
  if (text === null) return false;
  if (typeof needle !== "string") {
    throw typeError(`'in <string>' requires string as left operand, not ${typeName(needle)}`);
  }
  return cpIndexOf(text, needle) !== -1;
}
