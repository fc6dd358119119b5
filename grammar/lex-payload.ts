// A lexical error carried by a token's payload: the token is still produced (so parsing goes on)
// and the error becomes an EXPR-SYNTAX diagnostic.
export interface LexError {
  readonly detail: string;
  readonly start: number;
  readonly end: number;
}
