// A small deterministic YAML emitter for the generated spec (docs/reference/runtime.md §19.4): block style, two
// spaces per mapping level, sequence items at their parent key's indentation, and for each string
// the first of four styles that loads back (YAML 1.1, as the checker loads it) to the same string:
// plain, single-quoted, literal block `|-`, double-quoted.
import { resolvePlain } from "../../checker/yaml/resolve-plain";

/** A document node: a string, an integer, a mapping (insertion order) or a sequence. */
export type YamlValue = string | number | YamlMapping | readonly YamlValue[];
export type YamlMapping = ReadonlyMap<string, YamlValue>;

/** The document as text, ending with a newline. */
export function emitYaml(doc: YamlMapping): string {
  return `${mappingLines(doc, 0).join("\n")}\n`;
}

export type ScalarStyle = "plain" | "single" | "literal" | "double";

/** The style docs/reference/runtime.md §19.4 picks for a string value. */
export function scalarStyle(s: string): ScalarStyle {
  if (isPlainSafe(s)) return "plain";
  if (!hasLineBreak(s) && allPrintable(s)) return "single";
  if (isLiteralSafe(s)) return "literal";
  return "double";
}

// ---- the style rules --------------------------------------------------------------------------

/** YAML 1.1 line breaks (PyYAML also breaks lines at NEL, LS and PS). */
const LINE_BREAK = /[\n\r\x85\u2028\u2029]/;
const INDICATORS = "-?:,[]{}#&*!|>'\"%@`";

function hasLineBreak(s: string): boolean {
  return LINE_BREAK.test(s);
}

/** YAML's printable set (c-printable) without U+FEFF (a byte order mark is never content). */
function isPrintable(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    cp === 0x0d ||
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0x85 ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) ||
    cp >= 0x10000
  );
}

function allPrintable(s: string): boolean {
  for (const ch of s) if (!isPrintable(ch.codePointAt(0) ?? 0)) return false;
  return true;
}

function isPlainSafe(s: string): boolean {
  if (s === "" || s.startsWith(" ") || s.endsWith(" ")) return false;
  if (hasLineBreak(s) || s.includes("\t") || !allPrintable(s)) return false;
  if (INDICATORS.includes(s.charAt(0))) return false;
  if (s.includes(": ") || s.includes(" #") || s.endsWith(":")) return false;
  // Loads back as this string under YAML 1.1 typing (not `0.1`, `yes`, `null`, `12`, `<<`, `=`).
  const typed = resolvePlain(s);
  return typed.kind === "value" && typed.value === s;
}

/**
 * A literal block keeps every character but needs: `\n` as the only line break (the loader would
 * turn `\r`, NEL into `\n`), no trailing line break (`|-` strips them), and a first non-empty line
 * that does not start with a space (it would be taken as indentation).
 */
function isLiteralSafe(s: string): boolean {
  if (!s.includes("\n") || s.endsWith("\n") || !allPrintable(s)) return false;
  if (/[\r\x85\u2028\u2029]/.test(s)) return false;
  const firstLine = s.split("\n").find((line) => line !== "") ?? "";
  return !firstLine.startsWith(" ");
}

// ---- writing ------------------------------------------------------------------------------------

/** A scalar as written after `key: ` or `- `: the text on that line, then the lines after it. */
interface Written {
  readonly head: string;
  readonly tail: readonly string[];
}

/** `contentIndent`: the indentation of a literal block's lines. */
function writeString(s: string, contentIndent: number): Written {
  switch (scalarStyle(s)) {
    case "plain":
      return { head: s, tail: [] };
    case "single":
      return { head: singleQuoted(s), tail: [] };
    case "literal": {
      const pad = " ".repeat(contentIndent);
      return { head: "|-", tail: s.split("\n").map((line) => (line === "" ? "" : pad + line)) };
    }
    case "double":
      return { head: doubleQuoted(s), tail: [] };
  }
}

function singleQuoted(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

const SHORT_ESCAPES: ReadonlyMap<string, string> = new Map([
  ["\\", "\\\\"],
  ['"', '\\"'],
  ["\n", "\\n"],
  ["\t", "\\t"],
  ["\r", "\\r"],
  ["\0", "\\0"],
]);

/**
 * Double-quoted: `\`, `"` and control characters escaped (`\n \t \r \0`, else `\xhh`); also
 * escaped, so that the text stays one line and printable: LS/PS (YAML 1.1 line breaks) and other
 * non-printable code points such as U+FEFF or a lone surrogate (`\uhhhh`).
 */
export function doubleQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    const short = SHORT_ESCAPES.get(ch);
    if (short !== undefined) out += short;
    else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) out += `\\x${hex(cp, 2)}`;
    else if (cp === 0x2028 || cp === 0x2029 || !isPrintable(cp)) out += `\\u${hex(cp, 4)}`;
    else out += ch;
  }
  return `${out}"`;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

/** Implicit keys are limited to 1024 UTF-16 units (the yaml package); longer keys use `? key`. */
const MAX_IMPLICIT_KEY = 1024;

function keyText(key: string): string {
  // A key is one line: never a literal block.
  const style = scalarStyle(key);
  if (style === "plain") return key;
  if (style === "single") return singleQuoted(key);
  return doubleQuoted(key);
}

function isMapping(v: YamlValue): v is YamlMapping {
  return v instanceof Map;
}

function mappingLines(map: YamlMapping, indent: number): string[] {
  const pad = " ".repeat(indent);
  const out: string[] = [];
  for (const [key, value] of map) {
    const k = keyText(key);
    if (k.length > MAX_IMPLICIT_KEY) {
      out.push(`${pad}? ${k}`);
      valueLines(`${pad}:`, value, indent, out, true);
    } else {
      valueLines(`${pad}${k}:`, value, indent, out, false);
    }
  }
  return out;
}

/** The value of a mapping entry whose key line is `keyLine` (key at `indent`). */
function valueLines(
  keyLine: string,
  value: YamlValue,
  indent: number,
  out: string[],
  explicit: boolean,
): void {
  if (typeof value === "number") {
    out.push(`${keyLine} ${String(value)}`);
  } else if (typeof value === "string") {
    const w = writeString(value, indent + 2);
    out.push(`${keyLine} ${w.head}`, ...w.tail);
  } else if (isMapping(value)) {
    if (value.size === 0) out.push(`${keyLine} {}`);
    else out.push(keyLine, ...mappingLines(value, indent + 2));
  } else if (value.length === 0) {
    out.push(`${keyLine} []`);
  } else {
    // Items at the key's own indentation (after an explicit `:` line, one level deeper).
    out.push(keyLine, ...sequenceLines(value, explicit ? indent + 2 : indent));
  }
}

function sequenceLines(items: readonly YamlValue[], indent: number): string[] {
  const pad = " ".repeat(indent);
  const out: string[] = [];
  for (const item of items) {
    if (typeof item === "number") {
      out.push(`${pad}- ${String(item)}`);
    } else if (typeof item === "string") {
      const w = writeString(item, indent + 2);
      out.push(`${pad}- ${w.head}`, ...w.tail);
    } else if (isMapping(item) ? item.size === 0 : item.length === 0) {
      out.push(`${pad}- ${isMapping(item) ? "{}" : "[]"}`);
    } else {
      // A compact nested node: its first line starts right after `- `.
      const inner = isMapping(item) ? mappingLines(item, indent + 2) : sequenceLines(item, indent + 2);
      out.push(`${pad}- ${(inner[0] ?? "").slice(indent + 2)}`, ...inner.slice(1));
    }
  }
  return out;
}
