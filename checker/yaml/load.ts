// The YAML front end (docs/reference/language.md §1.1, docs/reference/language.md §9.5.1): text → one SpecNode tree with exact ranges, or
// YAML-* diagnostics. Pipeline: blank check → CST parse (iterative) → per document, a CST pre-scan
// (depth guard, tag tokens) → the fast path (cst-build.ts: the tree straight from the CST, for the
// common shapes) or, when it declines, compose with the yaml package (failsafe schema: every scalar
// stays its text) → TreeBuilder (PyYAML typing, aliases, merges, duplicates). Never throws.

import { Composer, type CST, type Document, Parser } from "yaml";
import type { SourceRange } from "../base/source-range";
import type { Reporter, ReportInput } from "../report";
import type { RuleInfo } from "../rule";
import type { SpecSource } from "../source";
import { TreeBuilder } from "./build";
import { YAML_COMPOSE_OPTIONS } from "./compose-options";
import { buildFromCst } from "./cst-build";
import { MAX_DEPTH, scanDocument } from "./cst-scan";
import { isHonouredTag } from "./explicit-tags";
import type { SpecNode } from "./nodes";
import { PY_SPACE } from "./python-space";
import { YAML_SUGGESTION } from "./rules/suggestion";
import { YAML_EMPTY } from "./rules/YAML-EMPTY";
import { YAML_MULTI_DOCUMENT } from "./rules/YAML-MULTI-DOCUMENT";
import { YAML_SYNTAX } from "./rules/YAML-SYNTAX";
import { YAML_TAG } from "./rules/YAML-TAG";
import { emptyRoot } from "./spec-nodes";
import { MISSING_CLOSING_QUOTE, openingQuote } from "./unclosed-quote";

export interface LoadedYaml {
  /** The document root; a document that loads as null is an empty mapping. */
  readonly root: SpecNode;
  /** False when an error-severity YAML diagnostic was reported (later phases do not run). */
  readonly ok: boolean;
}

/**
 * From this length on (UTF-16 units) the fast path frees the CST while it builds the tree (see
 * buildFromCst): peak memory of a big document drops by about the CST's size, ~80 bytes per input
 * byte. Below it a declined fast path can hand the same tokens to the composer without parsing
 * twice, which matters for the many small specs an editor or pre-commit checks.
 */
export const RELEASE_CST_FROM = 64 * 1024;

/** Python's str.isspace() characters: text made only of these is "blank" (as the reference). */
const BLANK = new RegExp(`^${PY_SPACE}*$`);

/** Counts the errors reported through it. */
class CountingReporter implements Reporter {
  errors = 0;
  constructor(private readonly inner: Reporter) {}
  report(rule: RuleInfo, input: ReportInput): void {
    if (rule.severity === "error") this.errors++;
    this.inner.report(rule, input);
  }
}

export function loadYaml(src: SpecSource, reporter: Reporter, options: LoadOptions = {}): LoadedYaml {
  const text = src.text;
  const sink = new CountingReporter(reporter);
  const parseError = (rule: RuleInfo, message: string, range: SourceRange): void =>
    sink.report(rule, { message, path: "", range: clampRange(text, range), suggestion: YAML_SUGGESTION });
  if (BLANK.test(text)) {
    parseError(YAML_EMPTY, YAML_EMPTY.message(), { start: 0, end: 0 });
    return { root: emptyRoot(), ok: false };
  }
  try {
    // YAML 1.1 (and PyYAML) treat a lone CR as a line break; the yaml package does not. Replacing
    // it by LF keeps every offset, so positions still refer to the original text.
    const yamlText = text.includes("\r") ? text.replace(/\r(?!\n)/g, "\n") : text;
    const root = loadDocument(yamlText, sink, parseError, options);
    return { root, ok: sink.errors === 0 };
  } catch (e) {
    // Defensive: the yaml package or a bug of ours threw; report instead of crashing the checker.
    const why = e instanceof Error ? e.message : String(e);
    parseError(YAML_SYNTAX, YAML_SYNTAX.message(`the YAML parser failed: ${why.split("\n")[0]}`), {
      start: 0,
      end: 0,
    });
    return { root: emptyRoot(), ok: false };
  }
}

/** Which way the document was loaded (for the differential test of the fast path). */
export type LoadPath = "fast" | "composer";

export interface LoadOptions {
  /** False: always compose with the yaml package (the reference the fast path must match). */
  readonly fastPath?: boolean;
  /** Free the CST while building the tree (default: for texts of RELEASE_CST_FROM or more). */
  readonly releaseCst?: boolean;
  /** Told which path loaded the document (nothing when the text is blank or the loader failed). */
  readonly onPath?: (path: LoadPath) => void;
}

function loadDocument(
  text: string,
  sink: Reporter,
  parseError: (rule: RuleInfo, message: string, range: SourceRange) => void,
  options: LoadOptions,
): SpecNode {
  // The stream's tokens are kept: the fast path reads the document's CST and, when it declines,
  // the composer gets exactly the tokens it would have been given one by one.
  const tokens: CST.Token[] = [];
  let tags: readonly CST.SourceToken[] = [];
  let document: CST.Document | undefined;
  let documents = 0;
  // Only comments and white space around one document (no directive, `...`, error token).
  let plainStream = true;
  for (const token of new Parser().parse(text)) {
    if (token.type === "document") {
      documents++;
      if (documents === 2) {
        parseError(YAML_MULTI_DOCUMENT, YAML_MULTI_DOCUMENT.message(), documentMarker(token));
        plainStream = false;
        break;
      }
      const scan = scanDocument(token);
      if (scan.tooDeepAt !== null) {
        // Never compose it: the composer recurses once per level.
        const at = scan.tooDeepAt;
        parseError(YAML_SYNTAX, YAML_SYNTAX.message(`nesting deeper than ${MAX_DEPTH} levels`), {
          start: at,
          end: at + 1,
        });
        return emptyRoot();
      }
      tags = scan.tags;
      document = token;
    } else if (token.type !== "comment" && token.type !== "newline" && token.type !== "space") {
      plainStream = false;
    }
    tokens.push(token);
  }
  let composed = tokens;
  if (options.fastPath !== false && plainStream && document !== undefined && tags.length === 0) {
    const release = options.releaseCst ?? text.length >= RELEASE_CST_FROM;
    const root = buildFromCst(text, document, sink, release);
    if (root !== null) {
      options.onPath?.("fast");
      return root.kind === "scalar" && root.value === null ? emptyRoot() : root;
    }
    // The fast path declined after releasing parts of the CST: the composer gets the same tokens
    // from a second parse of the same text.
    if (release) {
      tokens.length = 0;
      composed = [...new Parser().parse(text)];
    }
  }
  options.onPath?.("composer");
  const composer = new Composer(YAML_COMPOSE_OPTIONS);
  const docs: Document.Parsed[] = [];
  for (const token of composed) for (const doc of composer.next(token)) docs.push(doc as Document.Parsed);
  for (const doc of composer.end(false, text.length)) docs.push(doc as Document.Parsed);
  const doc = docs[0];
  const errors = doc === undefined ? composer.streamInfo().errors : doc.errors;
  for (const e of errors) {
    // Tags are checked below (YAML-TAG), including the ones the yaml package cannot resolve.
    if (e.code === "TAG_RESOLVE_FAILED") continue;
    // A missing closing quote is reported where the quote opened, not where the text ran out.
    const opened = MISSING_CLOSING_QUOTE.test(e.message) ? openingQuote(composed, e.pos[0]) : null;
    if (opened !== null) {
      const description = `${describe(e.message)}: the string opened here is never closed`;
      parseError(YAML_SYNTAX, YAML_SYNTAX.message(description), opened);
    } else {
      parseError(YAML_SYNTAX, YAML_SYNTAX.message(describe(e.message)), { start: e.pos[0], end: e.pos[1] });
    }
  }
  if (doc === undefined) return emptyRoot();
  for (const tag of tags) {
    const name = doc.directives?.tagName(tag.source, () => {}) ?? null;
    if (name !== null && isHonouredTag(name)) continue;
    parseError(YAML_TAG, YAML_TAG.message(tag.source), {
      start: tag.offset,
      end: tag.offset + tag.source.length,
    });
  }
  const contents: unknown = doc.contents;
  if (contents === null || contents === undefined) return emptyRoot();
  const root = new TreeBuilder(text, sink).build(contents, 0).node;
  return root.kind === "scalar" && root.value === null ? emptyRoot() : root;
}

/** The yaml package's message on one line, without a source excerpt. */
function describe(message: string): string {
  const line = message.split(/\r?\n/)[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, "").trim() || "invalid YAML";
}

/** The second document's `---` marker (or its first token when it has none). */
function documentMarker(token: CST.Document): SourceRange {
  const marker = token.start.find((t) => t.type === "doc-start");
  if (marker !== undefined) return { start: marker.offset, end: marker.offset + marker.source.length };
  const at = token.value?.offset ?? token.offset;
  return { start: at, end: at + 1 };
}

/** A range inside the text (error positions may point one past the end). */
function clampRange(text: string, range: SourceRange): SourceRange {
  const fix = (x: number): number =>
    Number.isFinite(x) ? Math.max(0, Math.min(Math.trunc(x), text.length)) : text.length;
  const start = fix(range.start);
  return { start, end: Math.max(start, fix(range.end)) };
}
