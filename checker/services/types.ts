// Editor services over a checked document: the language server is a thin protocol
// adapter over these functions. Everything here works on UTF-16 offsets into the document text
// (the LSP converts to line/character); nothing here knows about the protocol.
import type { CheckResult } from "../check-spec";

/** A checked document: the text and its check result (model, expression table, diagnostics). */
export interface SpecDocument {
  readonly text: string;
  readonly check: CheckResult;
}

/** A half-open UTF-16 range [start, end) in the document text. */
export interface OffsetRange {
  readonly start: number;
  readonly end: number;
}

export interface OffsetEdit {
  readonly range: OffsetRange;
  readonly newText: string;
}

export type SymbolKind = "flow" | "step" | "function" | "contract" | "field" | "workflow" | "input";

export interface DocumentSymbolInfo {
  readonly name: string;
  readonly kind: SymbolKind;
  /** e.g. the step kind, the function mode, a field's type. */
  readonly detail: string;
  /** The whole entity (a step item, a flow mapping entry …). */
  readonly range: OffsetRange;
  /** The name itself (the step's id value, the key of a function/flow/contract/field). */
  readonly selectionRange: OffsetRange;
  readonly children: readonly DocumentSymbolInfo[];
}

export type CompletionKind =
  | "key"
  | "step"
  | "function"
  | "flow"
  | "contract"
  | "field"
  | "input"
  | "variable"
  | "builtin"
  | "method"
  | "keyword"
  | "value";

export interface CompletionItemInfo {
  readonly label: string;
  readonly kind: CompletionKind;
  /** One line: a type, a signature, a step kind … */
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  /** The text to insert (default: label). */
  readonly insertText?: string;
  /** What the insert replaces (default: the word at the cursor). */
  readonly replace?: OffsetRange;
  /** Sort key (default: label). */
  readonly sortText?: string;
}

export interface HoverInfo {
  /** Markdown. */
  readonly contents: string;
  readonly range: OffsetRange;
}

export interface SignatureInfo {
  readonly label: string;
  readonly documentation?: string;
  /** Each parameter as a sub-range [start, end) of `label` (UTF-16). */
  readonly parameters: readonly {
    readonly label: readonly [number, number];
    readonly documentation?: string;
  }[];
}

export interface SignatureHelpInfo {
  readonly signatures: readonly SignatureInfo[];
  readonly activeSignature: number;
  readonly activeParameter: number;
}

export type RenameResult =
  | { readonly ok: true; readonly edits: readonly OffsetEdit[] }
  | { readonly ok: false; readonly message: string };

export interface FoldingRangeInfo {
  /** Offsets of the first and last folded characters; the LSP turns them into lines. */
  readonly range: OffsetRange;
  readonly kind?: "comment" | "region";
}

/** Semantic token types (the legend order is TOKEN_TYPES in tokens.ts). */
export type TokenType =
  | "variable"
  | "parameter"
  | "property"
  | "function"
  | "method"
  | "keyword"
  | "string"
  | "number"
  | "operator"
  | "namespace";

export interface SemanticTokenInfo {
  readonly range: OffsetRange;
  readonly type: TokenType;
}
