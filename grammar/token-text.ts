// How tokens are named in EXPR-SYNTAX details (docs/reference/language.md §9.5.5): `name 'x'`, `number 12`,
// `string 'abc'`, `'<text>'` for operators, punctuation and keywords, `end of expression`.
import { EOF, type IToken, tokenMatcher } from "chevrotain";
import { strRepr } from "../stdlib/values/repr";
import type { StringPayload } from "./lex-string";
import { Name, NumberLit, ReservedKeyword, StringLit, UnsupportedOperator } from "./tokens";

export function isEndOfInput(tok: IToken): boolean {
  return tok.tokenType === EOF || Number.isNaN(tok.startOffset);
}

function describeToken(tok: IToken): string {
  if (isEndOfInput(tok)) return "end of expression";
  if (tok.tokenType === Name) return `name '${tok.image}'`;
  if (tok.tokenType === NumberLit) return `number ${tok.image}`;
  if (tok.tokenType === StringLit) return `string ${strRepr((tok.payload as StringPayload).value)}`;
  return `'${tok.image}'`;
}

/** The detail for a token found where the grammar does not allow it. */
export function unexpectedTokenDetail(tok: IToken): string {
  if (!isEndOfInput(tok) && (tokenMatcher(tok, ReservedKeyword) || tokenMatcher(tok, UnsupportedOperator))) {
    return `'${tok.image}' is not supported`;
  }
  return `unexpected ${describeToken(tok)}`;
}
