// vocabulary_compliance(path, files_changed, git_fallback=False, base='HEAD'), the reference's
// ensure helper (docs/reference/language.md §10.9) that greps the changed files for the aliases a vocabulary
// file rejects. True when nothing is found; otherwise ValueError with one message per whole-word
// match, in file, line, alias order, worded as the reference words them.
import { FILE_CONTAINS_MAX_BYTES } from "../files";
import { typeError } from "../values/errors";
import { strRepr } from "../values/repr";
import { truthy } from "../values/truth";
import { type PyValue, typeName } from "../values/value";
import { elements } from "./common";
import type { EvalEnv } from "./env";
import { resolveInRoot } from "./file-access";
import { normpath } from "./posix-path";
import { isAlnumChar } from "./unicode";
import { violationList } from "./violation-list";
import { loadVocabulary, type VocabularyEntry } from "./vocabulary-file";

const READ_CHUNK_BYTES = 4096;

/** Python's str.splitlines() boundaries (universal newlines have already made \r\n and \r into \n). */
const LINE_BREAKS: ReadonlySet<number> = new Set([0x0a, 0x0b, 0x0c, 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029]);

/** `text.splitlines()`: no empty last line after a final break. */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (LINE_BREAKS.has(text.charCodeAt(i))) {
      lines.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

interface Alias {
  readonly alias: string;
  readonly canonical: string;
  readonly reason: string;
}

/** Python's `\w` for str patterns: a Unicode alphanumeric or the underscore. */
function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && (ch === "_" || isAlnumChar(ch));
}

/** The code point that ends just before UTF-16 index `i`. */
function charBefore(text: string, i: number): string | undefined {
  if (i <= 0) return undefined;
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(i - 2, i);
  }
  return text[i - 1];
}

function charAt(text: string, i: number): string | undefined {
  const cp = text.codePointAt(i);
  return cp === undefined ? undefined : String.fromCodePoint(cp);
}

/** How many times `\b<alias>\b` matches in `line` (matches of a word cannot overlap). */
function wholeWordMatches(line: string, alias: string): number {
  let count = 0;
  for (let at = line.indexOf(alias); at !== -1; at = line.indexOf(alias, at + 1)) {
    if (!isWordChar(charBefore(line, at)) && !isWordChar(charAt(line, at + alias.length))) count++;
  }
  return count;
}

/** The file's lines as `open(errors="replace").read().splitlines()` gives them; null when unreadable or too big. */
function readLines(real: string, env: EvalEnv): string[] | null {
  const files = env.files;
  if (files === null) return null;
  const stat = files.fs.stat(real);
  if (stat === null || stat.size > FILE_CONTAINS_MAX_BYTES) return null;
  const bytes = files.fs.readFile(real, FILE_CONTAINS_MAX_BYTES + 1);
  if (bytes === null || bytes.length > FILE_CONTAINS_MAX_BYTES) return null;
  env.budget.charge(Math.ceil(bytes.length / READ_CHUNK_BYTES));
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes).replace(/\r\n?/g, "\n");
  return splitLines(text);
}

function scanFile(path: string, real: string, aliases: readonly Alias[], env: EvalEnv): string[] {
  const lines = readLines(real, env);
  if (lines === null) return [];
  const out: string[] = [];
  lines.forEach((line, i) => {
    env.budget.charge(aliases.length);
    for (const { alias, canonical, reason } of aliases) {
      const n = wholeWordMatches(line, alias);
      for (let k = 0; k < n; k++) {
        const head = `vocabulary violation: ${path}:${i + 1} uses ${strRepr(alias)} — canonical is ${strRepr(canonical)}`;
        out.push(reason === "" ? head : `${head} (reason: ${reason})`);
      }
    }
  });
  return out;
}

/** The distinct normalised paths of `files` that are regular files inside the working root, with their real paths. */
function existingFiles(files: PyValue, env: EvalEnv): [string, string][] {
  const seen = new Set<string>();
  const out: [string, string][] = [];
  for (const f of elements(files, env)) {
    if (typeof f !== "string") {
      throw typeError(`expected str, bytes or os.PathLike object, not ${typeName(f)}`);
    }
    const norm = normpath(f);
    if (seen.has(norm)) continue;
    seen.add(norm);
    const real = env.files === null ? null : resolveInRoot(env.files, norm);
    if (real !== null && env.files?.fs.stat(real)?.isFile === true) out.push([norm, real]);
  }
  return out;
}

function aliasTable(vocabulary: readonly VocabularyEntry[]): Alias[] {
  return vocabulary.flatMap(({ canonical, reject, reason }) =>
    reject.map((alias) => ({ alias, canonical, reason })),
  );
}

export function vocabularyCompliance(path: PyValue, filesChanged: PyValue, env: EvalEnv): boolean {
  const vocabulary = loadVocabulary(path, env);
  if (vocabulary.length === 0) return true;
  // An empty list with git_fallback: the reference asks git for the changed files; this
  // implementation runs no program from an expression and answers as the reference does when git
  // fails (DIV-VOCABULARY-GIT).
  if (!truthy(filesChanged)) return true;
  const aliases = aliasTable(vocabulary);
  const violations: string[] = [];
  for (const [norm, real] of existingFiles(filesChanged, env))
    violations.push(...scanFile(norm, real, aliases, env));
  if (violations.length > 0) throw violationList(violations);
  return true;
}
