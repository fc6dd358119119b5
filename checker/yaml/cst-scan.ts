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
  const collectTags = (tokens: readonly CST.SourceToken[] | undefined): void => {
    if (tokens === undefined) return;
    for (const t of tokens) if (t.type === "tag") tags.push(t);
  };
  collectTags(doc.start);
  // Explicit stack: [token, depth of the collection that holds it]. Visit order does not
  // matter: the tags are sorted at the end.
  const stack: [CST.Token, number][] = [];
  if (doc.value !== undefined) stack.push([doc.value, 0]);
  while (stack.length > 0) {
    const top = stack.pop();
    if (top === undefined) break;
    const [token, depth] = top;
    if (token.type !== "block-map" && token.type !== "block-seq" && token.type !== "flow-collection") {
      continue;
    }
    if (depth + 1 > MAX_DEPTH) return { tooDeepAt: token.offset, tags };
    for (const item of token.items) {
      collectTags(item.start);
      if (item.key) stack.push([item.key, depth + 1]);
      collectTags(item.sep);
      if (item.value) stack.push([item.value, depth + 1]);
    }
  }
  tags.sort((a, b) => a.offset - b.offset);
  return { tooDeepAt: null, tags };
}
