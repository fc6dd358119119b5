// Small constructors for AST nodes built by the parser's actions.
import type { IToken } from "chevrotain";
import type { CompareOperator, Constant, ConstantValue, Expr, Name, Path, Span } from "./ast";
import type { NumberPayload } from "./lex-number";
import type { PathPayload } from "./lex-path";

export function tokenSpan(tok: IToken): Span {
  return { start: tok.startOffset, end: tok.startOffset + tok.image.length };
}

export function nameNode(tok: IToken): Name {
  return { kind: "Name", id: tok.image, start: tok.startOffset, end: tok.startOffset + tok.image.length };
}

function constant(value: ConstantValue, start: number, end: number): Constant {
  return { kind: "Constant", value, start, end };
}

const LITERAL_VALUES: Readonly<Record<string, ConstantValue>> = {
  True: true,
  true: true,
  False: false,
  false: false,
  None: null,
  null: null,
};

export function literalKeyword(tok: IToken): Constant {
  const span = tokenSpan(tok);
  return constant(LITERAL_VALUES[tok.image] ?? null, span.start, span.end);
}

export function numberNode(tok: IToken): Expr {
  const payload = tok.payload as NumberPayload;
  const span = tokenSpan(tok);
  if (payload.error !== null) return { kind: "Error", ...span };
  return constant(payload.value, span.start, span.end);
}

export function pathNode(tok: IToken): Path {
  const payload = tok.payload as PathPayload;
  return { kind: "Path", text: tok.image, ref: payload.ref, ...tokenSpan(tok) };
}

export interface CompareStep {
  readonly op: CompareOperator;
  readonly span: Span;
}
