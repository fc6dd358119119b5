// The new scalar after a change inside one scalar, when the change provably keeps the document's
// token structure: the scalar keeps its style and boundaries (what precedes and follows it is
// unchanged text), so a full parse would build the same tree with only this scalar replaced and
// later ranges moved. Every condition is conservative: when in doubt, null (the caller reloads).
//
// - plain and quoted scalars: old and new on one line, no tag; a plain scalar keeps to the
//   characters that cannot end it or start another token (no `: `, ` #`, leading indicators, flow
//   indicators inside flow collections); the new text alone must lex as one scalar of the style.
// - block scalars (`|`, `>`): the change is inside one content line of the body, which keeps its
//   indentation and stays non-empty; the new body is loaded by the yaml package under a header
//   alone, which must read exactly the same body.
// The loaded string of the new scalar always comes from the yaml package itself.
import { Composer, isMap, isScalar, Parser, type Scalar } from "yaml";
import { YAML_COMPOSE_OPTIONS } from "../yaml/compose-options";
import type { ScalarStyle } from "../yaml/nodes";
import { resolvePlain } from "../yaml/resolve-plain";
import { LoadedScalar } from "../yaml/spec-nodes";
import type { ScalarTarget } from "./locate";
import { changeDelta, type TextChange } from "./text-change";

const SCALAR_TYPES: Readonly<Record<ScalarStyle, string>> = {
  plain: "PLAIN",
  single: "QUOTE_SINGLE",
  double: "QUOTE_DOUBLE",
  literal: "BLOCK_LITERAL",
  folded: "BLOCK_FOLDED",
};

/** Longest key accepted (YAML limits implicit keys to 1024 characters; stay well inside). */
const MAX_KEY_LENGTH = 1000;

export interface EditedScalar {
  readonly scalar: LoadedScalar;
  /** The key's new name (for a key: its string value, else null). */
  readonly name: string | null;
}

export function editScalar(
  target: ScalarTarget,
  change: TextChange,
  oldText: string,
  newText: string,
): EditedScalar | null {
  const old = target.scalar;
  if (!(old instanceof LoadedScalar) || old.tag !== null) return null;
  const { start, end } = old.range;
  if (start === end) return null;
  const delta = changeDelta(change);
  const inserted = newText.slice(change.start, change.newEnd);
  if (!printable(inserted)) return null;
  const origin = old.origin();
  let scalar: LoadedScalar | null;
  if (old.style === "literal" || old.style === "folded") {
    if (target.isKey || origin.block === undefined) return null;
    scalar = blockScalar(old, origin.block, origin.textEnd, change, oldText, newText);
  } else {
    if (origin.textEnd !== end) return null;
    const raw = newText.slice(start, end + delta);
    // One line: printable excludes every YAML 1.1 line break.
    if (!printable(raw) || (target.isKey && raw.length > MAX_KEY_LENGTH)) return null;
    scalar = flowScalar(old, raw, change, target, newText, delta);
  }
  if (scalar === null) return null;
  return { scalar, name: typeof scalar.value === "string" ? scalar.value : null };
}

function flowScalar(
  old: LoadedScalar,
  raw: string,
  change: TextChange,
  target: ScalarTarget,
  newText: string,
  delta: number,
): LoadedScalar | null {
  const { start, end } = old.range;
  if (old.style === "plain") {
    if (!plainFits(raw, target.inFlow)) return null;
  } else {
    // The change must leave both quotes in place.
    if (change.start <= start || change.oldEnd >= end) return null;
    const quote = old.style === "single" ? "'" : '"';
    if (closingQuote(raw, quote) !== raw.length - 1) return null;
  }
  const loaded = loadAlone(raw, old.style);
  if (loaded === null) return null;
  let value: LoadedScalar["value"] = loaded;
  if (old.style === "plain") {
    const resolved = resolvePlain(loaded);
    // `<<`, `=` and values PyYAML cannot construct carry diagnostics or merge: reload.
    if (resolved.kind !== "value") return null;
    value = resolved.value;
  }
  const range = { start, end: end + delta };
  return new LoadedScalar(range, value, old.style, null, newText, range.end, loaded, undefined);
}

/**
 * Where the quoted scalar starting at raw[0] closes: `\\` escapes the next character in a
 * double-quoted scalar, `''` is a quote in a single-quoted one. -1 when it does not close (the
 * yaml package reads an unclosed quote at the end of its input without an error, so the text alone
 * cannot tell).
 */
function closingQuote(raw: string, quote: string): number {
  if (raw.charAt(0) !== quote) return -1;
  for (let i = 1; i < raw.length; i++) {
    const c = raw.charAt(i);
    if (quote === '"' && c === "\\") i++;
    else if (c === quote) {
      if (quote === "'" && raw.charAt(i + 1) === "'") i++;
      else return i;
    }
  }
  return -1;
}

/**
 * No control character (tab included), line break, BOM, DEL, C1 or lone surrogate: what remains
 * means the same in every scalar style and never starts or ends a token by itself.
 */
function printable(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || c === 0xfeff) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

const FIRST_INDICATORS = "-?:,[]{}#&*!|>'\"%@`";
const FLOW_INDICATORS = ",[]{}";

/** A plain scalar's text that stays one plain scalar wherever it is written (in block or flow context). */
function plainFits(raw: string, inFlow: boolean): boolean {
  if (raw.length === 0) return false;
  const first = raw.charAt(0);
  if (first === " " || raw.charAt(raw.length - 1) === " ") return false;
  if (FIRST_INDICATORS.includes(first)) {
    // `-1`, `?x`, `:x` are plain; `- x`, `? x`, `: x` and every other indicator start other tokens.
    const second = raw.charAt(1);
    if (!"-?:".includes(first) || second === "" || second === " ") return false;
    if (inFlow && FLOW_INDICATORS.includes(second)) return false;
  }
  if (raw.startsWith("---") || raw.startsWith("...")) return false;
  if (raw.includes(" #") || raw.endsWith(":") || raw.includes(": ")) return false;
  if (inFlow) {
    for (const c of raw) if (FLOW_INDICATORS.includes(c) || c === ":" || c === "#") return false;
  }
  return true;
}

/**
 * The string the yaml package loads from a one-line scalar written alone as a document, when it
 * reads the whole text as one scalar of the expected style without an error; else null.
 */
function loadAlone(raw: string, style: ScalarStyle): string | null {
  const scalar = composeOne(raw, (contents) => (isScalar(contents) ? contents : null));
  if (scalar === null || scalar.type !== SCALAR_TYPES[style]) return null;
  const range = scalar.range;
  if (range === null || range === undefined || range[0] !== 0 || range[1] !== raw.length) return null;
  return typeof scalar.value === "string" ? scalar.value : null;
}

/** Composes a small document; null when it has errors, warnings or more than one document. */
function composeOne(text: string, pick: (contents: unknown) => Scalar | null): Scalar | null {
  const composer = new Composer(YAML_COMPOSE_OPTIONS);
  const docs = [];
  for (const token of new Parser().parse(text)) docs.push(...composer.next(token));
  docs.push(...composer.end(false, text.length));
  const doc = docs[0];
  if (docs.length !== 1 || doc === undefined || doc.errors.length > 0 || doc.warnings.length > 0) return null;
  return pick(doc.contents);
}

/** A change inside one non-empty content line of a block scalar's body that keeps its indentation. */
function blockScalar(
  old: LoadedScalar,
  block: NonNullable<ReturnType<LoadedScalar["origin"]>["block"]>,
  textEnd: number,
  change: TextChange,
  oldText: string,
  newText: string,
): LoadedScalar | null {
  const header = block.props[0];
  if (header === undefined || header.type !== "block-scalar-header") return null;
  // An explicit indentation indicator is relative to the parent's indentation: not reproduced alone.
  if (/[1-9]/.test(header.source)) return null;
  let headerLength = 0;
  for (const p of block.props)
    headerLength += "source" in p && typeof p.source === "string" ? p.source.length : 0;
  const bodyStart = block.offset + headerLength;
  const bodyEnd = bodyStart + block.source.length;
  if (change.start < bodyStart || change.oldEnd > bodyEnd || bodyEnd > textEnd) return null;
  const delta = changeDelta(change);
  // The old line holding the change, its indentation, and the same line after the change.
  const lineStart = oldText.lastIndexOf("\n", change.start - 1) + 1;
  if (lineStart < bodyStart || oldText.slice(change.start, change.oldEnd).includes("\n")) return null;
  const oldLine = oldText.slice(lineStart, lineEnd(oldText, change.oldEnd));
  const newLine = newText.slice(lineStart, lineEnd(newText, change.newEnd));
  const indent = leadingSpaces(oldLine);
  if (indent === 0 || indent === oldLine.length || change.start < lineStart + indent) return null;
  if (leadingSpaces(newLine) !== indent || indent === newLine.length || newLine.charAt(indent) === "\t")
    return null;
  if (!printable(newLine)) return null;
  const body = newText.slice(bodyStart, bodyEnd + delta);
  const loaded = loadBlockAlone(header.source, body, old.style);
  if (loaded === null) return null;
  const newBlock = { ...block, source: body };
  const range = { start: old.range.start, end: old.range.end + delta };
  return new LoadedScalar(range, loaded, old.style, null, newText, textEnd + delta, loaded, newBlock);
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf("\n", from);
  return nl < 0 ? text.length : nl;
}

function leadingSpaces(line: string): number {
  let n = 0;
  while (n < line.length && line.charCodeAt(n) === 32) n++;
  return n;
}

/** The block scalar's body loaded under `k: <header>` at the top level; null unless it reads the same body. */
function loadBlockAlone(header: string, body: string, style: ScalarStyle): string | null {
  const text = `k: ${header}\n${body}`;
  const scalar = composeOne(text, (contents) => {
    if (!isMap(contents) || contents.items.length !== 1) return null;
    const value = contents.items[0]?.value;
    return isScalar(value) ? value : null;
  });
  if (scalar === null || scalar.type !== SCALAR_TYPES[style]) return null;
  const token = scalar.srcToken;
  if (token?.type !== "block-scalar" || token.source !== body) return null;
  return typeof scalar.value === "string" ? scalar.value : null;
}
