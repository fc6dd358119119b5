// One iterative pass over a document's CST before it is composed: finds nesting deeper than
// MAX_DEPTH (the yaml package composes recursively, and V8 may even abort the process when a
// regular expression is compiled near the stack limit, so a too-deep document must never reach
// the composer) and collects the tag tokens (checked against the honoured tags after composing).
import type { CST } from "yaml";

/**
 * Deepest nesting of collections accepted. The yaml composer overflows the default stack at
 * roughly 900–1000 levels; 200 leaves a wide margin for the callers' own frames (a language
 * server, a test runner) and is far beyond any real spec (PyYAML itself fails near 300).
 */
export const MAX_DEPTH = 200;

export interface CstScan {
  /** Offset of the first collection nested deeper than MAX_DEPTH, or null. */
  readonly tooDeepAt: number | null;
  /** Every tag token of the document, in document order. */
  readonly tags: readonly CST.SourceToken[];
}

export function scanDocument(doc: CST.Document): CstScan {
  const tags: CST.SourceToken[] = [];
  collectTags(doc.start, tags);
  // Explicit stack of collection tokens with, in a parallel array, their nesting depth (two flat
  // arrays instead of a tuple per token: this runs on every document the checker loads). Only
  // collections are pushed, as before: a node's tag is among its item's start or sep tokens.
  // Visit order does not matter: the tags are sorted at the end.
  const stack: CST.Token[] = [];
  const depths: number[] = [];
  if (doc.value !== undefined && isCollection(doc.value)) {
    stack.push(doc.value);
    depths.push(1);
  }
  while (stack.length > 0) {
    const token = stack.pop() as CST.BlockMap | CST.BlockSequence | CST.FlowCollection;
    const depth = depths.pop() as number;
    if (depth > MAX_DEPTH) return { tooDeepAt: token.offset, tags };
    for (const item of token.items) {
      collectTags(item.start, tags);
      if (item.key && isCollection(item.key)) {
        stack.push(item.key);
        depths.push(depth + 1);
      }
      collectTags(item.sep, tags);
      if (item.value && isCollection(item.value)) {
        stack.push(item.value);
        depths.push(depth + 1);
      }
    }
  }
  if (tags.length > 1) tags.sort((a, b) => a.offset - b.offset);
  return { tooDeepAt: null, tags };
}

function isCollection(token: CST.Token): boolean {
  return token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection";
}

function collectTags(tokens: readonly CST.SourceToken[] | undefined, into: CST.SourceToken[]): void {
  if (tokens === undefined) return;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as CST.SourceToken;
    if (t.type === "tag") into.push(t);
  }
}
