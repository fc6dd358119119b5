// Where an unclosed quote opened. The yaml package reports a missing closing quote where the
// quoted scalar's token ends — usually the end of the file, since the string swallows every line
// after the quote — which points the reader far from the mistake. The token itself starts at the
// opening quote, so the CST gives the place to report instead.
import type { CST } from "yaml";
import type { SourceRange } from "../base/source-range";

/** The yaml package's message for a quoted scalar that never ends. */
export const MISSING_CLOSING_QUOTE = /^Missing closing (["'])quote/;

/**
 * The opening quote of the quoted scalar whose token ends at `end` (where the yaml package
 * reports the missing closing quote), or null when no such token is in the stream.
 */
export function openingQuote(tokens: readonly CST.Token[], end: number): SourceRange | null {
  // Iterative: the document's nesting was bounded by the CST scan, but a stack costs nothing.
  const stack: CST.Token[] = [];
  for (const token of tokens) if (token.type === "document" && token.value) stack.push(token.value);
  while (stack.length > 0) {
    const token = stack.pop() as CST.Token;
    if (token.type === "single-quoted-scalar" || token.type === "double-quoted-scalar") {
      if (token.offset + token.source.length === end) return { start: token.offset, end: token.offset + 1 };
    } else if (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection") {
      for (const item of token.items) {
        if ("key" in item && item.key) stack.push(item.key);
        if (item.value) stack.push(item.value);
      }
    }
  }
  return null;
}
