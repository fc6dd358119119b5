// Writes test/fuzzer/reference-specs/: every spec the Python reference implementation (stratum-mcp)
// holds at one revision, read from a bare git mirror — the YAML spec blocks of its skills and
// Markdown documents, and the spec strings of its Python test suite — with a manifest of where each
// came from. The fuzz survey (scripts/fuzz-survey.mjs) runs over them: specs nobody here wrote.
//
//   node scripts/extract-reference-specs.mjs [MIRROR] [REVISION] [--out DIR]
//
// MIRROR defaults to /work/.mirror/smartmemory+stratum/repo, REVISION to 63fc11d (version 0.2.69),
// DIR to test/fuzzer/reference-specs. The spec files and manifest.json under DIR are rewritten;
// README.md, labels.json and the survey there are left alone.
//
// A spec is a YAML mapping with `version` and `flows` or `functions`. Python string literals are
// decoded as Python does (escapes, raw and f-strings without substitutions, adjacent literals
// joined, `textwrap.dedent(...)` applied); a spec-like literal whose text the call site changes
// (`.format`, `%`, `+`, an f-string substitution) cannot be reconstructed and is counted, not
// written. Identical texts are written once; the manifest lists the other places.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const outFlag = args.indexOf("--out");
const outDir = outFlag === -1 ? join(root, "test/fuzzer/reference-specs") : args[outFlag + 1];
const positional = args.filter((_, i) => i !== outFlag && i !== outFlag + 1);
const mirror = positional[0] ?? "/work/.mirror/smartmemory+stratum/repo";
const revision = positional[1] ?? "63fc11d";

const git = (...a) => execFileSync("git", ["-C", mirror, ...a], { encoding: "utf8", maxBuffer: 1 << 28 });
const commit = git("rev-parse", `${revision}^{commit}`).trim();
const paths = git("ls-tree", "-r", "--name-only", commit).split("\n").filter(Boolean).sort();
const show = (path) => git("show", `${commit}:${path}`);

const SKILL = /^stratum-mcp\/src\/stratum_mcp\/skills\/([^/]+)\/SKILL\.md$/;
const TEST = /^(stratum-mcp\/tests|tests)\/.*\.py$/;

/** The kind of a source file, or null when it is not scanned. */
function kindOf(path) {
  if (SKILL.test(path)) return "skill";
  if (TEST.test(path)) return "test";
  if (path.endsWith(".md")) return "doc";
  return null;
}

/** Deterministic file name stem from the source path. */
function stem(path, kind) {
  const skill = SKILL.exec(path);
  if (skill) return skill[1];
  let s = path.replace(/\.(md|py)$/, "");
  if (kind === "test") s = s.replace(/^stratum-mcp\/tests\//, "mcp/").replace(/^tests\//, "core/");
  return s.replaceAll("/", ".").replace(/[^A-Za-z0-9_.-]/g, "_");
}

const looksLikeSpec = (text) => /\bversion\s*:/.test(text) && /\b(flows|functions)\s*:/.test(text);

/** True when the text is YAML whose root is a mapping with `version` and `flows` or `functions`. */
function isSpec(text) {
  const doc = parseDocument(text, { version: "1.1", uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length > 0) return false;
  const value = doc.toJS({ maxAliasCount: -1 });
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    "version" in value &&
    ("flows" in value || "functions" in value)
  );
}

// ---------------------------------------------------------------------------------------------
// Markdown: fenced code blocks (``` or ~~~, any info string, indented fences inside lists too).

function markdownBlocks(text) {
  const lines = text.split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[j]);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break;
      // As CommonMark: up to the fence's indentation is removed from each content line.
      let k = 0;
      while (k < indent.length && lines[j][k] === " ") k++;
      body.push(lines[j].slice(k));
    }
    blocks.push({ line: i + 2, info: open[3].trim(), text: `${body.join("\n")}\n` });
    i = j;
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Python: string literals with their decoded values, as the tokenizer of Python 3.11 sees them.

/** Every string literal of a Python source: prefix, body, offsets, line, bracket depth. */
function pythonLiterals(src) {
  const out = [];
  let depth = 0;
  let line = 1;
  for (let i = 0; i < src.length; ) {
    const c = src[i];
    if (c === "\n") {
      line++;
      i++;
    } else if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (c === "(" || c === "[" || c === "{") {
      depth++;
      i++;
    } else if (c === ")" || c === "]" || c === "}") {
      depth = Math.max(0, depth - 1);
      i++;
    } else if (c === "'" || c === '"') {
      let p = i;
      while (p > 0 && /[rRbBuUfF]/.test(src[p - 1]) && i - p < 2) p--;
      if (p > 0 && /[A-Za-z0-9_]/.test(src[p - 1])) p = i; // an identifier ending in r/b/f, not a prefix
      const prefix = src.slice(p, i).toLowerCase();
      const quote = src.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < src.length && !src.startsWith(quote, j)) j += src[j] === "\\" ? 2 : 1;
      const body = src.slice(i + quote.length, j);
      out.push({ start: p, end: j + quote.length, line, prefix, body, depth });
      for (const ch of src.slice(i, j + quote.length)) if (ch === "\n") line++;
      i = j + quote.length;
    } else {
      i++;
    }
  }
  return out;
}

const SIMPLE_ESCAPES = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

/** The value of a non-raw body, or null when it holds an escape this script does not decode. */
function decodeEscapes(body) {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== "\\") {
      out += body[i];
      continue;
    }
    const e = body[++i];
    if (e === "\n") continue;
    if (e in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[e];
    else if (/[0-7]/.test(e)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i));
      out += String.fromCodePoint(Number.parseInt(m[0], 8));
      i += m[0].length - 1;
    } else if (e === "x" || e === "u" || e === "U") {
      const n = { x: 2, u: 4, U: 8 }[e];
      const hex = body.slice(i + 1, i + 1 + n);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) return null;
      out += String.fromCodePoint(Number.parseInt(hex, 16));
      i += n;
    } else if (e === "N") return null;
    else out += `\\${e}`;
  }
  return out;
}

/** The value of one literal, or {skip: reason}. */
function literalValue({ prefix, body }) {
  if (prefix.includes("b")) return { skip: "bytes" };
  let text = prefix.includes("r") ? body : decodeEscapes(body);
  if (text === null) return { skip: "an escape not decoded" };
  if (prefix.includes("f")) {
    if (/\{(?!\{)/.test(text.replaceAll("{{", ""))) return { skip: "f-string with substitutions" };
    text = text.replaceAll("{{", "{").replaceAll("}}", "}");
  }
  return { text };
}

/** textwrap.dedent of Python 3.11. */
function dedent(text) {
  const lines = text.split("\n").map((l) => (/^[ \t]+$/.test(l) ? "" : l));
  let margin = null;
  for (const l of lines) {
    if (l === "") continue;
    const indent = /^[ \t]*/.exec(l)[0];
    if (margin === null || margin.startsWith(indent)) margin = indent;
    else if (!indent.startsWith(margin)) {
      let k = 0;
      while (k < margin.length && margin[k] === indent[k]) k++;
      margin = margin.slice(0, k);
    }
  }
  return margin
    ? lines.map((l) => (l.startsWith(margin) ? l.slice(margin.length) : l)).join("\n")
    : lines.join("\n");
}

/** Adjacent literals (implicit concatenation) grouped, with the code around each group. */
function pythonStrings(src) {
  const lits = pythonLiterals(src);
  const groups = [];
  for (const lit of lits) {
    const last = groups.at(-1);
    const gap = last ? src.slice(last.at(-1).end, lit.start) : null;
    const joinable =
      gap !== null && (/^[ \t]*(\\\n[ \t]*)*$/.test(gap) || (lit.depth > 0 && /^(\s|#[^\n]*)*$/.test(gap)));
    if (joinable) last.push(lit);
    else groups.push([lit]);
  }
  return groups.map((group) => {
    const before = src.slice(Math.max(0, group[0].start - 200), group[0].start);
    const after = src.slice(group.at(-1).end, group.at(-1).end + 200);
    const parts = group.map(literalValue);
    const skipped = parts.find((p) => p.skip);
    const raw = skipped ? null : parts.map((p) => p.text).join("");
    const dedented = /(?:^|[^\w.])(?:textwrap\.)?dedent\(\s*$/.test(before);
    const afterCall = dedented ? after.replace(/^\s*\)/, "") : after;
    let changed = null;
    if (skipped) changed = skipped.skip;
    else if (/^\s*\.(format|replace|format_map)\(/.test(afterCall)) changed = "changed by a method call";
    else if (/^\s*%[^=]/.test(afterCall)) changed = "%-formatting";
    else if (/^\s*\+/.test(afterCall) || /\+\s*$/.test(before)) changed = "concatenated with other code";
    let text = raw === null ? null : dedented ? dedent(raw) : raw;
    if (text !== null && /^\s*\.strip\(\)/.test(afterCall)) text = text.trim();
    return { line: group[0].line, text, changed, spanText: group.map((l) => l.body).join("") };
  });
}

// ---------------------------------------------------------------------------------------------

const found = []; // {kind, source, line, text}
const skipped = []; // {kind, source, line, reason}
const counts = { scanned_files: { skill: 0, doc: 0, test: 0 } };
for (const path of paths) {
  const kind = kindOf(path);
  if (kind === null) continue;
  counts.scanned_files[kind]++;
  const src = show(path);
  if (kind === "test") {
    for (const s of pythonStrings(src)) {
      const probe = s.text ?? s.spanText;
      if (!looksLikeSpec(probe)) continue;
      if (s.changed) skipped.push({ kind, source: path, line: s.line, reason: s.changed });
      else if (isSpec(s.text)) found.push({ kind, source: path, line: s.line, text: s.text });
      else
        skipped.push({
          kind,
          source: path,
          line: s.line,
          reason: "not a YAML mapping with version and flows/functions",
        });
    }
  } else {
    for (const b of markdownBlocks(src)) {
      if (!looksLikeSpec(b.text)) continue;
      if (isSpec(b.text)) found.push({ kind, source: path, line: b.line, text: b.text });
      else {
        const reason = /^ya?ml$|^$/.test(b.info)
          ? "not a YAML mapping with version and flows/functions"
          : `a ${b.info} code block (the spec is inside its code)`;
        skipped.push({ kind, source: path, line: b.line, reason });
      }
    }
  }
}

// Names: stem of the source path and the spec's index in that file (1-based, duplicates counted,
// so a name never depends on another file).
const perSource = new Map();
const byText = new Map();
const files = [];
for (const spec of found) {
  const index = (perSource.get(spec.source) ?? 0) + 1;
  perSource.set(spec.source, index);
  const key = spec.text.replace(/\s+$/, "");
  const first = byText.get(key);
  if (first) {
    first.duplicates.push({ source: spec.source, line: spec.line, kind: spec.kind });
    continue;
  }
  const file = `${spec.kind}/${stem(spec.source, spec.kind)}-${index}.stratum.yaml`;
  const entry = {
    file,
    kind: spec.kind,
    source: spec.source,
    line: spec.line,
    duplicates: [],
    text: spec.text,
  };
  byText.set(key, entry);
  files.push(entry);
}

for (const kind of ["skill", "doc", "test"]) rmSync(join(outDir, kind), { recursive: true, force: true });
for (const entry of files) {
  mkdirSync(join(outDir, entry.file, ".."), { recursive: true });
  writeFileSync(join(outDir, entry.file), entry.text.endsWith("\n") ? entry.text : `${entry.text}\n`);
}

const tally = (list) =>
  Object.fromEntries(["skill", "doc", "test"].map((k) => [k, list.filter((e) => e.kind === k).length]));
const skippedReasons = {};
for (const s of skipped) skippedReasons[s.reason] = (skippedReasons[s.reason] ?? 0) + 1;
const manifest = {
  repository: "https://github.com/smartmemory/stratum",
  license: "Apache-2.0",
  revision: commit,
  generated_by: "scripts/extract-reference-specs.mjs",
  counts: {
    scanned_files: counts.scanned_files,
    specs_found: tally(found),
    files_written: tally(files),
    duplicates: found.length - files.length,
    skipped: tally(skipped),
    skipped_reasons: skippedReasons,
  },
  files: files.map(({ text: _text, ...rest }) => rest),
  skipped,
};
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
const written = readdirSync(outDir).length;
console.log(
  `revision ${commit}: ${found.length} specs found (${JSON.stringify(tally(found))}), ${files.length} files written ` +
    `(${JSON.stringify(tally(files))}), ${found.length - files.length} duplicates, ${skipped.length} skipped ` +
    `(${JSON.stringify(skippedReasons)}); ${written} entries in ${outDir}`,
);
