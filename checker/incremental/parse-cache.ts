// parseExpression with memory: a document's expressions are mostly the same text from one check
// to the next, and parsing (Chevrotain) is a large part of checking them. Parse results are
// immutable (syntax trees are never changed), so one result may serve several checks. Only the
// texts parsed during the latest check are kept, so the memory follows the document's size.
import { type ParseResult, parseExpression } from "../../grammar/parse";

export class ParseCache {
  private previous = new Map<string, ParseResult>();
  private current = new Map<string, ParseResult>();

  /** Starts a new check: what the last check did not parse is forgotten. */
  nextGeneration(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  readonly parse = (text: string): ParseResult => {
    let result = this.current.get(text) ?? this.previous.get(text);
    if (result === undefined) result = parseExpression(text);
    this.current.set(text, result);
    return result;
  };
}
