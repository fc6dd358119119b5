// Suppression comments: `# stratum-ignore[CODE]: reason` or `# stratum-ignore[A, B]: reason`.
//
// A suppression is a real YAML comment (found with the `yaml` package's lexer, so a `#` inside a
// quoted or block scalar is never mistaken for one). At the end of a line it applies to the
// diagnostics that start on that line; alone on a line it applies to the next line that is not
// itself a comment-only line (so several suppressions can be stacked). A reason is required; a
// suppression without one, with an unknown code, or naming a code that cannot be suppressed (the
// YAML and suppression families) is SUPPRESS-MALFORMED and suppresses nothing. A code that matched
// no diagnostic is SUPPRESS-UNUSED (each declared in suppressions/, named after its code). Applied in
// the core so the CLI, MCP and LSP agree.
import { Lexer } from "yaml";
import type { SourceRange } from "./base/source-range";
import type { SpecDiagnostic } from "./diagnostic";
import { suggest } from "./expr/did-you-mean";
import { DiagnosticSink } from "./report";
import type { RuleInfo } from "./rule";
import type { SpecSource } from "./source";
import { SUPPRESS_MALFORMED } from "./suppressions/SUPPRESS-MALFORMED";
import { SUPPRESS_UNUSED } from "./suppressions/SUPPRESS-UNUSED";

export const SUPPRESSION_RULES: readonly RuleInfo[] = [SUPPRESS_MALFORMED, SUPPRESS_UNUSED];

/** The codes suppressions may name, with their rules (the catalogue). */
export type KnownCodes = ReadonlyMap<string, RuleInfo>;

const MARKER = "stratum-ignore";
/** `stratum-ignore` as a word (`stratum-ignore-next-line` is a malformed attempt, `stratum-ignored` is prose). */
const SUPPRESSION_START = /^#\s*stratum-ignore(?![A-Za-z0-9_])/;
const CODE_SYNTAX = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$/;

interface CodeRef {
  readonly code: string;
  readonly range: SourceRange;
}

/** One well-formed suppression comment. */
interface Suppression {
  readonly codes: readonly CodeRef[];
  /** 1-based line whose diagnostics it suppresses. */
  readonly target: number;
  /** What to delete to remove the whole comment. */
  readonly removal: SourceRange;
}

/** A comment found by the YAML lexer: the text from `#` to the end of its line. */
interface Comment {
  readonly start: number;
  readonly text: string;
  /** Nothing but whitespace before it on its line. */
  readonly ownLine: boolean;
}

/**
 * Removes suppressed diagnostics and adds SUPPRESS-MALFORMED / SUPPRESS-UNUSED. `known` is the
 * catalogue used to reject unknown codes; without it any code of the right shape is accepted
 * (a misspelt one then shows up as unused).
 */
export function applySuppressions(
  src: SpecSource,
  diagnostics: readonly SpecDiagnostic[],
  known?: KnownCodes,
  options: SuppressionOptions = {},
): SpecDiagnostic[] {
  if (!src.text.includes(MARKER)) return [...diagnostics];
  if (options.scope === "fuzz") return applyFuzzSuppressions(src, diagnostics, known);
  const added = new DiagnosticSink();
  const suppressions: Suppression[] = [];
  const comments = scanComments(src);
  const ownLines = new Set(comments.filter((c) => c.ownLine).map((c) => src.lineOf(c.start)));
  for (const comment of comments) {
    if (!SUPPRESSION_START.test(comment.text)) continue;
    const parsed = parseSuppression(src, comment, ownLines, known);
    if ("problem" in parsed) {
      added.report(SUPPRESS_MALFORMED, {
        message: SUPPRESS_MALFORMED.message(parsed.problem),
        path: "",
        range: parsed.range,
        ...(parsed.suggestion === undefined ? {} : { suggestion: parsed.suggestion }),
      });
    } else suppressions.push(parsed);
  }
  const out: SpecDiagnostic[] = [];
  const used = new Set<CodeRef>();
  for (const d of diagnostics) {
    const line = src.lineOf(d.range.start);
    let suppressed = false;
    if (suppressible(d.code)) {
      for (const s of suppressions) {
        if (s.target !== line) continue;
        for (const ref of s.codes) {
          if (ref.code !== d.code) continue;
          used.add(ref);
          suppressed = true;
        }
      }
    }
    if (!suppressed) out.push(d);
  }
  if (!stoppedEarly(diagnostics)) {
    for (const s of suppressions) {
      // Deleting the comment is certainly right only when none of its codes is used.
      const allUnused = s.codes.every((ref) => !used.has(ref));
      for (const ref of s.codes) {
        // A FUZZ-* code names what some run shows: checking alone cannot tell it is unused; nor
        // can a check whose rule was not run (SPEC-NOT-PORTABLE without `portable`).
        if (used.has(ref) || isRunTimeCode(ref.code) || options.notChecked?.includes(ref.code)) continue;
        added.report(SUPPRESS_UNUSED, {
          message: SUPPRESS_UNUSED.message(ref.code, s.target),
          path: "",
          range: ref.range,
          ...(allUnused
            ? {
                fix: {
                  description: "Remove the unused suppression comment",
                  edits: [{ range: s.removal, newText: "" }],
                },
              }
            : {}),
        });
      }
    }
  }
  return [...out, ...added.diagnostics];
}

export interface SuppressionOptions {
  /**
   * `static` (default): the checker's diagnostics, with SUPPRESS-MALFORMED and SUPPRESS-UNUSED.
   * `fuzz`: the findings of `stratumc fuzz` (FUZZ-* codes), which only the suppressions naming a
   * FUZZ-* code apply to; malformed comments are the checker's to report, and a finding that no
   * run showed this time does not make its suppression unused.
   */
  readonly scope?: "static" | "fuzz";
  /** Codes whose rules this check did not run: a suppression naming them is never unused. */
  readonly notChecked?: readonly string[];
}

function isRunTimeCode(code: string): boolean {
  return code.startsWith("FUZZ-");
}

function applyFuzzSuppressions(
  src: SpecSource,
  diagnostics: readonly SpecDiagnostic[],
  known?: KnownCodes,
): SpecDiagnostic[] {
  const comments = scanComments(src);
  const ownLines = new Set(comments.filter((c) => c.ownLine).map((c) => src.lineOf(c.start)));
  const suppressed = new Set<string>();
  for (const comment of comments) {
    if (!SUPPRESSION_START.test(comment.text)) continue;
    const parsed = parseSuppression(src, comment, ownLines, known);
    if ("problem" in parsed) continue;
    for (const ref of parsed.codes)
      if (isRunTimeCode(ref.code)) suppressed.add(`${parsed.target}:${ref.code}`);
  }
  return diagnostics.filter((d) => !suppressed.has(`${src.lineOf(d.range.start)}:${d.code}`));
}

/** YAML diagnostics are about the text itself; suppression diagnostics must not hide themselves. */
function suppressible(code: string): boolean {
  return !code.startsWith("YAML-") && !code.startsWith("SUPPRESS-");
}

/**
 * When parsing failed, or the root or version stopped the checker (docs/reference/language.md §9.3), most rules never ran:
 * calling every suppression unused then would only be noise.
 */
function stoppedEarly(diagnostics: readonly SpecDiagnostic[]): boolean {
  return diagnostics.some(
    (d) =>
      (d.severity === "error" && d.code.startsWith("YAML-")) ||
      d.code === "SCHEMA-ROOT-NOT-MAPPING" ||
      (d.code.startsWith("SCHEMA-") && d.path === "version"),
  );
}

/** Every comment of the text, in order. */
function scanComments(src: SpecSource): Comment[] {
  const comments: Comment[] = [];
  let offset = 0;
  // A lone \r is a line break for us (docs/reference/language.md §9.2) but not for the lexer: give it a \n of the same length.
  const text = src.text.replace(/\r(?!\n)/g, "\n");
  for (const token of new Lexer().lex(text)) {
    // The lexer interleaves one-character control tokens that are not source text.
    if (token === "\x02" || token === "\x18" || token === "\x1f") continue;
    if (token.startsWith("#")) {
      const before = src.text.slice(lineStartOf(src, offset), offset);
      comments.push({ start: offset, text: token.trimEnd(), ownLine: before.trim() === "" });
    }
    offset += token.length;
  }
  return comments;
}

function lineStartOf(src: SpecSource, offset: number): number {
  let i = offset;
  while (i > 0) {
    const c = src.text.charCodeAt(i - 1);
    if (c === 10 || c === 13) break;
    i--;
  }
  return i;
}

interface Problem {
  readonly problem: string;
  readonly range: SourceRange;
  readonly suggestion?: string;
}

/** `#  stratum-ignore [A, B] : reason` → the codes and target line, or what is wrong with it. */
function parseSuppression(
  src: SpecSource,
  comment: Comment,
  ownLines: ReadonlySet<number>,
  known: KnownCodes | undefined,
): Suppression | Problem {
  const whole: SourceRange = { start: comment.start, end: comment.start + comment.text.length };
  let i = (/^#\s*stratum-ignore\s*/.exec(comment.text)?.[0] ?? "").length;
  const text = comment.text;
  if (text[i] !== "[") return { problem: "expected '[CODE]' after 'stratum-ignore'", range: whole };
  const close = text.indexOf("]", i);
  if (close < 0) return { problem: "missing ']' after the codes", range: whole };
  const codes: CodeRef[] = [];
  let itemStart = i + 1;
  for (const item of text.slice(i + 1, close).split(",")) {
    const lead = item.length - item.trimStart().length;
    const code = item.trim();
    const range = {
      start: comment.start + itemStart + lead,
      end: comment.start + itemStart + lead + code.length,
    };
    itemStart += item.length + 1;
    if (code === "") return { problem: "a code is missing between '[' and ']'", range: whole };
    const bad = codeProblem(code, range, known);
    if (bad !== null) return bad;
    codes.push({ code, range });
  }
  i = close + 1;
  const rest = text.slice(i);
  const colon = /^\s*:/.exec(rest);
  if (colon === null || rest.slice(colon[0].length).trim() === "") {
    return { problem: "a reason is required: # stratum-ignore[CODE]: reason", range: whole };
  }
  const line = src.lineOf(comment.start);
  let target = line;
  if (comment.ownLine) {
    target = line + 1;
    while (ownLines.has(target)) target++;
  }
  return { codes, target, removal: removalRange(src, comment, whole) };
}

function codeProblem(code: string, range: SourceRange, known: KnownCodes | undefined): Problem | null {
  const isKnown = known === undefined ? CODE_SYNTAX.test(code) : known.has(code);
  if (!isKnown) {
    const close = known === undefined ? null : suggest(code, known.keys());
    return {
      problem: `unknown code '${code}'`,
      range,
      ...(close === null ? {} : { suggestion: `Did you mean '${close.candidate}'?` }),
    };
  }
  if (!suppressible(code)) return { problem: `'${code}' cannot be suppressed`, range };
  return null;
}

/** The whole line of an own-line comment (with its line break); else the comment and the blanks before it. */
function removalRange(src: SpecSource, comment: Comment, whole: SourceRange): SourceRange {
  const lineStart = lineStartOf(src, comment.start);
  if (comment.ownLine) {
    let end = whole.end;
    while (end < src.text.length && src.text[end] !== "\n" && src.text[end] !== "\r") end++;
    if (src.text.startsWith("\r\n", end)) end += 2;
    else if (end < src.text.length) end += 1;
    return { start: lineStart, end };
  }
  let start = comment.start;
  while (start > lineStart && (src.text[start - 1] === " " || src.text[start - 1] === "\t")) start--;
  return { start, end: whole.end };
}
