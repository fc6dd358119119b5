// Completion, hover, signature help and semantic tokens, inside expression
// strings too. Each function reads the document's view (cursor-view.ts: the model, or one recovered
// from a document that does not load cleanly), finds where the cursor is (cursor.ts for the YAML
// structure, context-expr.ts inside expressions) and delegates to one module per feature.
import { expressionCompletions } from "./completion-expr";
import { keyCompletions, valueCompletions } from "./completion-yaml";
import { exprSiteOf } from "./context-expr";
import { clampOffset, yamlCursorAt } from "./cursor";
import { viewOf } from "./cursor-view";
import { hoverInfoAt } from "./hover";
import { signatureHelpInfoAt } from "./signature";
import { expressionTokens } from "./tokens";
import type {
  CompletionItemInfo,
  HoverInfo,
  SemanticTokenInfo,
  SignatureHelpInfo,
  SpecDocument,
} from "./types";

export { TOKEN_TYPES } from "./tokens";

/** What is valid at `offset`: keys, step ids, names, `$.input.`/`$.steps.<id>.output.` fields, names in scope, `result.` fields, builtins, methods. */
export function completionsAt(doc: SpecDocument, offset: number): readonly CompletionItemInfo[] {
  const view = viewOf(doc);
  const o = clampOffset(doc.text, offset);
  const cursor = yamlCursorAt(doc.text, view.root, o);
  if (cursor.kind === "key") return keyCompletions(view, cursor);
  if (cursor.kind === "none") return [];
  const site = exprSiteOf(view, cursor.path, cursor.node);
  return site !== null ? expressionCompletions(view, site, o) : valueCompletions(view, cursor);
}

/** The type of the (sub-)expression under the cursor, contract field types, builtin docs, step summaries. */
export function hoverAt(doc: SpecDocument, offset: number): HoverInfo | null {
  return hoverInfoAt(viewOf(doc), clampOffset(doc.text, offset));
}

/** The builtin or method call around `offset`, with the active parameter. */
export function signatureHelpAt(doc: SpecDocument, offset: number): SignatureHelpInfo | null {
  return signatureHelpInfoAt(viewOf(doc), clampOffset(doc.text, offset));
}

/** Tokens of every expression string (and `$` references in step inputs), in document order. */
export function semanticTokens(doc: SpecDocument): readonly SemanticTokenInfo[] {
  return expressionTokens(viewOf(doc));
}
