// State and helpers shared by the grammar rules of parser.ts: token offsets, the recursion guard,
// diagnostics raised by the rules themselves, and the record of parenthesised expressions.

import { EmbeddedActionsParser, type IRecognitionException, type IToken } from "chevrotain";
import type { ErrorNode, Expr, Slice } from "./ast";
import { SKIP_GRAMMAR_VALIDATIONS } from "./build-flags";
import { MAX_EXPRESSION_DEPTH, type SyntaxDiagnostic, syntaxError } from "./diagnostics";
import { ALL_TOKENS } from "./tokens";

/** Thrown (and caught by parseExpression) when nesting passes the limit: parsing stops at once. */
export class TooDeepError extends Error {
  constructor(
    readonly start: number,
    readonly end: number,
  ) {
    super("expression nested too deeply");
  }
}

/** The `(` tokens around a parenthesised expression, outermost first (they add nesting depth). */
export interface ParenInfo {
  readonly opens: number[];
  outerEnd: number;
}

export abstract class ParserBase extends EmbeddedActionsParser {
  protected textLength = 0;
  /** Nesting depth counted while parsing: a lower bound of the real depth, to bound recursion. */
  protected depth = 0;
  /** EXPR-SYNTAX diagnostics raised by rule actions (not by Chevrotain's own recognition). */
  protected ruleDiagnostics: SyntaxDiagnostic[] = [];
  protected parens: Map<Expr, ParenInfo> | null = null;

  constructor() {
    super(ALL_TOKENS, { recoveryEnabled: true, maxLookahead: 2, skipValidations: SKIP_GRAMMAR_VALIDATIONS });
  }

  /** Prepares the (reused) parser for a new token vector. */
  begin(tokens: IToken[], textLength: number): void {
    this.textLength = textLength;
    this.depth = 0;
    this.ruleDiagnostics = [];
    this.parens = null;
    this.input = tokens;
  }

  get diagnosticsOfRules(): readonly SyntaxDiagnostic[] {
    return this.ruleDiagnostics;
  }

  get parenthesised(): ReadonlyMap<Expr, ParenInfo> | null {
    return this.parens;
  }

  protected report(detail: string, start: number, end: number): void {
    this.ruleDiagnostics.push(syntaxError(detail, start, end));
  }

  protected reportToken(detail: string, tok: IToken): void {
    this.report(detail, this.startOf(tok), this.endOf(tok));
  }

  /** End offset of the last real token consumed (0 before any). */
  private previousEnd(): number {
    const prev = this.LA(0);
    return Number.isNaN(prev.startOffset) ? 0 : prev.startOffset + prev.image.length;
  }

  /** Start offset of a token; tokens inserted by recovery and EOF have none (NaN). */
  protected startOf(tok: IToken): number {
    return Number.isNaN(tok.startOffset) ? this.previousEnd() : tok.startOffset;
  }

  protected endOf(tok: IToken): number {
    return Number.isNaN(tok.startOffset) ? this.previousEnd() : tok.startOffset + tok.image.length;
  }

  /** End of a bracketed form: its closing token, never before its last child. */
  protected closeEnd(closer: IToken, lastChildEnd: number): number {
    return Math.max(this.endOf(closer), lastChildEnd);
  }

  /** Enters one nesting level at `tok`; returns the depth to restore on exit. */
  protected enter(tok: IToken): number {
    const saved = this.depth;
    if (this.RECORDING_PHASE) return saved;
    this.depth = saved + 1;
    if (this.depth > MAX_EXPRESSION_DEPTH) throw new TooDeepError(this.startOf(tok), this.endOf(tok));
    return saved;
  }

  /** Checks a trailer chain (`f()()[0]`): its nodes nest, one level per trailer. */
  protected checkChain(base: number, trailers: number, tok: IToken): void {
    if (!this.RECORDING_PHASE && base + trailers > MAX_EXPRESSION_DEPTH) {
      throw new TooDeepError(this.startOf(tok), this.endOf(tok));
    }
  }

  /** Where `e` starts, counting the parentheses written around it. */
  outerStart(e: Expr | Slice): number {
    const info = this.parens === null || e.kind === "Slice" ? undefined : this.parens.get(e);
    return info === undefined ? e.start : info.opens[0]!;
  }

  /** Where `e` ends, counting the parentheses written around it. */
  outerEnd(e: Expr | Slice): number {
    const info = this.parens === null || e.kind === "Slice" ? undefined : this.parens.get(e);
    return info === undefined ? e.end : info.outerEnd;
  }

  /** Records that `expr` was written inside the parentheses opened by `open`. */
  protected markParenthesised(expr: Expr, open: IToken, closeEnd: number): void {
    this.parens ??= new Map();
    const info = this.parens.get(expr);
    if (info === undefined) this.parens.set(expr, { opens: [this.startOf(open)], outerEnd: closeEnd });
    else {
      info.opens.unshift(this.startOf(open));
      info.outerEnd = closeEnd;
    }
  }

  /** The value of a production that failed and was recovered from: a hole at the bad token. */
  protected errorNode(e: IRecognitionException): ErrorNode {
    const tok = e.token;
    if (Number.isNaN(tok.startOffset)) return { kind: "Error", start: this.textLength, end: this.textLength };
    return { kind: "Error", start: tok.startOffset, end: tok.startOffset + tok.image.length };
  }
}
