// Entry point of the grammar layer: text → AST + syntax diagnostics. Never throws.
import { type IRecognitionException, type IToken, tokenMatcher } from "chevrotain";
import type { Expr } from "./ast";
import { findTooDeep } from "./depth";
import {
  MAX_EXPRESSION_DEPTH,
  MAX_EXPRESSION_LENGTH,
  type SyntaxDiagnostic,
  syntaxError,
} from "./diagnostics";
import type { LexError } from "./lex-payload";
import { ExprParser } from "./parser";
import { TooDeepError } from "./parser-base";
import { isEndOfInput, unexpectedTokenDetail } from "./token-text";
import * as T from "./tokens";

export interface ParseResult {
  /** Non-null whenever there are no diagnostics; otherwise possibly partial (ErrorNode holes). */
  readonly expr: Expr | null;
  readonly diagnostics: readonly SyntaxDiagnostic[];
}

let parser: ExprParser | null = null;

/** The one parser instance, built on first use (building costs a few milliseconds). */
function getParser(): ExprParser {
  parser ??= new ExprParser();
  return parser;
}

const CLOSERS: Readonly<Record<string, string>> = { ")": "(", "]": "[", "}": "{" };

/** What the token list alone says, before parsing. */
interface TokenScan {
  readonly diagnostics: SyntaxDiagnostic[];
  /** Innermost bracket never closed, if any. */
  readonly unclosed: IToken | null;
  /** Offset of the first reserved keyword: later parser errors are its cascade. */
  readonly reservedAt: number;
  /** An upper bound of the nesting depth: the number of tokens that can open a level. */
  readonly openers: number;
  /** A string literal runs to the end of the text unterminated. */
  readonly openString: boolean;
}

function scanTokens(tokens: readonly IToken[], textLength: number): TokenScan {
  const diagnostics: SyntaxDiagnostic[] = [];
  const brackets: IToken[] = [];
  let reservedAt = Number.POSITIVE_INFINITY;
  let openers = 0;
  let openString = false;
  for (const tok of tokens) {
    const type = tok.tokenType;
    const image = tok.image;
    if (type === T.LParen || type === T.LBracket || type === T.LBrace) {
      brackets.push(tok);
      openers++;
    } else if (type === T.RParen || type === T.RBracket || type === T.RBrace) {
      if (brackets[brackets.length - 1]?.image === CLOSERS[image]) brackets.pop();
    } else if (type === T.StringLit || type === T.NumberLit) {
      const error = (tok.payload as { error: LexError | null }).error;
      if (error !== null) {
        diagnostics.push(syntaxError(error.detail, error.start, error.end));
        if (type === T.StringLit && tok.startOffset + image.length === textLength) openString = true;
      }
    } else if (type === T.LoneDollar) {
      diagnostics.push(syntaxError("'$' must be followed by '.'", tok.startOffset, tok.startOffset + 1));
    } else if (tokenMatcher(tok, T.ReservedKeyword)) {
      diagnostics.push(
        syntaxError(`'${image}' is not supported`, tok.startOffset, tok.startOffset + image.length),
      );
      reservedAt = Math.min(reservedAt, tok.startOffset);
    } else if (tokenMatcher(tok, T.PrefixOperator) || type === T.If || type === T.For) {
      openers++;
    }
  }
  return { diagnostics, unclosed: brackets[brackets.length - 1] ?? null, reservedAt, openers, openString };
}

/** Turns one of Chevrotain's recognition errors into a located EXPR-SYNTAX diagnostic. */
function recognitionDiagnostic(
  e: IRecognitionException,
  scan: TokenScan,
  textLength: number,
): SyntaxDiagnostic | null {
  const tok = e.token;
  if (isEndOfInput(tok)) {
    if (scan.openString) return null;
    const open = scan.unclosed;
    if (open !== null)
      return syntaxError(`'${open.image}' was never closed`, open.startOffset, open.startOffset + 1);
    return syntaxError("unexpected end of expression", textLength, textLength);
  }
  if (tok.startOffset > scan.reservedAt) return null;
  const payload = tok.payload as { error?: LexError | null } | undefined;
  // A malformed literal was already reported by the token scan.
  if (payload?.error) return null;
  return syntaxError(unexpectedTokenDetail(tok), tok.startOffset, tok.startOffset + tok.image.length);
}

function dedupeSorted(diagnostics: SyntaxDiagnostic[]): SyntaxDiagnostic[] {
  diagnostics.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: SyntaxDiagnostic[] = [];
  const seen = new Set<string>();
  for (const d of diagnostics) {
    const key = `${d.start}:${d.end}:${d.code === "EXPR-SYNTAX" ? d.detail : d.code}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(d);
    }
  }
  return out;
}

function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function parseUnchecked(text: string): ParseResult {
  if (text.length > MAX_EXPRESSION_LENGTH) {
    const length = codePointLength(text);
    if (length > MAX_EXPRESSION_LENGTH) {
      return { expr: null, diagnostics: [{ code: "EXPR-TOO-LONG", length, start: 0, end: text.length }] };
    }
  }
  const tokens = T.tokenize(text);
  const scan = scanTokens(tokens, text.length);
  const p = getParser();
  p.begin(tokens, text.length);
  const expr = p.expression();
  const diagnostics = [...scan.diagnostics, ...p.diagnosticsOfRules];
  for (const e of p.errors) {
    const d = recognitionDiagnostic(e, scan, text.length);
    if (d !== null) diagnostics.push(d);
  }
  if (scan.openers > MAX_EXPRESSION_DEPTH && expr !== undefined) {
    const tooDeep = findTooDeep(expr, p.parenthesised, tokens);
    if (tooDeep !== null) return { expr: null, diagnostics: [{ code: "EXPR-TOO-DEEP", ...tooDeep }] };
  }
  if (diagnostics.length === 0) return { expr, diagnostics };
  return { expr: expr ?? null, diagnostics: dedupeSorted(diagnostics) };
}

/**
 * Parses one expression (docs/reference/language.md §10.2–docs/reference/language.md §10.5, limits of docs/reference/language.md §10.15). Never throws: every problem
 * is a diagnostic. `expr` is non-null whenever `diagnostics` is empty.
 */
export function parseExpression(text: string): ParseResult {
  try {
    return parseUnchecked(text);
  } catch (e) {
    if (e instanceof TooDeepError) {
      return { expr: null, diagnostics: [{ code: "EXPR-TOO-DEEP", start: e.start, end: e.end }] };
    }
    const message = e instanceof Error ? e.message : String(e);
    return { expr: null, diagnostics: [syntaxError(`internal parser error: ${message}`, 0, text.length)] };
  }
}
