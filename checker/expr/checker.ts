// The state of one expression check: diagnostics, recorded types, and the dispatch over node
// kinds. The node handlers live in their own files and call back into `visit`.
import type { Expr, Span } from "../../grammar/ast";
import type { AccessFailure } from "../../stdlib/types/access";
import { typeOfValue } from "../../stdlib/types/of-value";
import { ANY, type Type } from "../../stdlib/types/type";
import { didYouMean, MESSAGES, type MessageCode, renameFix } from "../messages";
import { visitAttribute, visitSubscript } from "./access";
import { visitCall } from "./calls";
import { visitComprehension } from "./comprehensions";
import { suggest } from "./did-you-mean";
import { visitDict, visitList, visitTuple } from "./displays";
import { visitName, visitPath } from "./names";
import { visitBinOp, visitBoolOp, visitCompare, visitIfExp, visitUnaryOp } from "./operators";
import type { Scope } from "./scope";
import type { ExprDiagnostic, ExprEnvironment, ExprFix } from "./types";

/** The reference knows these spellings only in skip_if (executor.py evaluate_skip_if). */
const LOWERCASE_LITERALS: ReadonlyMap<string, string> = new Map([
  ["true", "True"],
  ["false", "False"],
  ["null", "None"],
]);

export class Checker {
  readonly diagnostics: ExprDiagnostic[] = [];
  readonly types = new Map<Expr, Type>();

  constructor(
    readonly text: string,
    readonly env: ExprEnvironment,
  ) {}

  visit(e: Expr, scope: Scope | null): Type {
    const t = this.dispatch(e, scope);
    this.types.set(e, t);
    return t;
  }

  record(e: Expr, t: Type): void {
    this.types.set(e, t);
  }

  private dispatch(e: Expr, scope: Scope | null): Type {
    switch (e.kind) {
      case "Constant":
        this.lowercaseLiteral(e);
        return typeOfValue(e.value);
      case "Name":
        return visitName(this, e, scope);
      case "Path":
        return visitPath(this, e);
      case "Attribute":
        return visitAttribute(this, e, scope);
      case "Subscript":
        return visitSubscript(this, e, scope);
      case "Call":
        return visitCall(this, e, scope);
      case "UnaryOp":
        return visitUnaryOp(this, e, scope);
      case "BinOp":
        return visitBinOp(this, e, scope);
      case "BoolOp":
        return visitBoolOp(this, e, scope);
      case "Compare":
        return visitCompare(this, e, scope);
      case "IfExp":
        return visitIfExp(this, e, scope);
      case "List":
        return visitList(this, e, scope);
      case "Tuple":
        return visitTuple(this, e, scope);
      case "Dict":
        return visitDict(this, e, scope);
      case "ListComp":
      case "GeneratorExp":
        return visitComprehension(this, e, scope);
      case "Error":
        return ANY;
    }
  }

  report(
    code: MessageCode,
    message: string,
    span: Span,
    extra?: { suggestion?: string; fix?: ExprFix },
  ): void {
    const start = clamp(span.start, this.text.length);
    const end = Math.max(start, clamp(span.end, this.text.length));
    this.diagnostics.push({ code, severity: MESSAGES[code].severity, message, start, end, ...extra });
  }

  /** A diagnostic with a did-you-mean suggestion (and a rename fix when the match is unique). */
  reportWithSuggestion(
    code: MessageCode,
    message: string,
    span: Span,
    name: string,
    candidates: Iterable<string>,
  ): void {
    const s = suggest(name, candidates);
    if (s === null) {
      this.report(code, message, span);
      return;
    }
    const extra: { suggestion: string; fix?: ExprFix } = { suggestion: didYouMean(s.candidate) };
    const newText = s.unique ? this.renamedText(span, name, s.candidate) : null;
    if (newText !== null) {
      extra.fix = {
        description: renameFix(name, s.candidate),
        edits: [{ start: span.start, end: span.end, newText }],
      };
    }
    this.report(code, message, span, extra);
  }

  /**
   * The text that replaces `span` (which names `name`) by `candidate`: the bare name, or, where the
   * name is written as a plain string literal (a subscript key, `.get('f')`), the literal in the same
   * quotes. Null when the literal is written any other way (escapes, prefixes) or the quotes would
   * need escaping.
   */
  private renamedText(span: Span, name: string, candidate: string): string | null {
    const written = this.text.slice(span.start, span.end);
    const quote = written[0];
    if (quote !== "'" && quote !== '"') return written === name ? candidate : null;
    if (written !== `${quote}${name}${quote}` || /['"\\]/.test(candidate)) return null;
    return `${quote}${candidate}${quote}`;
  }

  /** EXPR-LOWERCASE-LITERAL: `true`/`false`/`null` where the reference has no such names. */
  private lowercaseLiteral(e: Expr & { kind: "Constant" }): void {
    const kind = this.env.kind;
    if (kind === undefined || kind === "skip_if") return;
    const word = this.text.slice(e.start, e.end);
    const canonical = LOWERCASE_LITERALS.get(word);
    if (canonical === undefined) return;
    const entry = MESSAGES["EXPR-LOWERCASE-LITERAL"];
    this.report("EXPR-LOWERCASE-LITERAL", entry.message(word, canonical, kind), e, {
      fix: {
        description: entry.fixDescription(word, canonical),
        edits: [{ start: e.start, end: e.end, newText: canonical }],
      },
    });
  }

  typeError(pythonText: string, span: Span, failsFrom?: 1 | 2): void {
    this.report("EXPR-TYPE", MESSAGES["EXPR-TYPE"].message(pythonText, failsFrom), span);
  }

  dunder(span: Span): void {
    this.report("EXPR-DUNDER", MESSAGES["EXPR-DUNDER"].message(this.env.owner, this.env.kind), span);
  }

  /**
   * Reports a failed access: unknown fields and methods at `nameSpan`, arity at `callSpan`, type
   * errors at the blamed argument when the rule names one, else at `opSpan`.
   */
  accessFailure(
    f: AccessFailure,
    spans: {
      name: Span;
      op: Span;
      call?: Span;
      args?: readonly Span[];
      keywords?: ReadonlyMap<string, Span>;
    },
  ): void {
    switch (f.code) {
      case "EXPR-UNKNOWN-FIELD":
        this.reportWithSuggestion(
          f.code,
          MESSAGES[f.code].message(f.record.name, f.field),
          spans.name,
          f.field,
          f.record.fields.keys(),
        );
        return;
      case "EXPR-UNKNOWN-METHOD":
        this.reportWithSuggestion(
          f.code,
          MESSAGES[f.code].message(f.receiver, f.name),
          spans.name,
          f.name,
          f.candidates,
        );
        return;
      case "EXPR-ARITY":
        this.report(f.code, MESSAGES[f.code].message(f.message), spans.call ?? spans.op);
        return;
      case "EXPR-TYPE": {
        const blamed =
          typeof f.arg === "number"
            ? spans.args?.[f.arg]
            : f.arg === undefined
              ? undefined
              : spans.keywords?.get(f.arg);
        this.typeError(f.message, blamed ?? spans.op, f.failsFrom);
      }
    }
  }
}

function clamp(offset: number, length: number): number {
  if (!Number.isFinite(offset)) return length;
  return Math.min(Math.max(0, Math.trunc(offset)), length);
}
