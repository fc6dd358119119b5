// The editor services' results (UTF-16 offsets, plain kinds) as protocol objects. No logic beyond
// the conversion: what is offered is decided in checker/services/.
import {
  type CompletionItem,
  CompletionItemKind,
  type DocumentSymbol,
  type FoldingRange,
  FoldingRangeKind,
  type Hover,
  MarkupKind,
  type SemanticTokens,
  type SignatureHelp,
  SymbolKind,
  type TextEdit,
} from "vscode-languageserver/node";
import type {
  CompletionItemInfo,
  CompletionKind,
  DocumentSymbolInfo,
  FoldingRangeInfo,
  HoverInfo,
  OffsetEdit,
  OffsetRange,
  SemanticTokenInfo,
  SymbolKind as ServiceSymbolKind,
  SignatureHelpInfo,
  TokenType,
} from "../checker/index";
import { TOKEN_TYPES } from "../checker/index";
import type { PositionIndex } from "./positions";

const COMPLETION_KIND: Record<CompletionKind, CompletionItemKind> = {
  key: CompletionItemKind.Property,
  step: CompletionItemKind.Reference,
  function: CompletionItemKind.Function,
  flow: CompletionItemKind.Module,
  contract: CompletionItemKind.Struct,
  field: CompletionItemKind.Field,
  input: CompletionItemKind.Variable,
  variable: CompletionItemKind.Variable,
  builtin: CompletionItemKind.Function,
  method: CompletionItemKind.Method,
  keyword: CompletionItemKind.Keyword,
  value: CompletionItemKind.Value,
};

const SYMBOL_KIND: Record<ServiceSymbolKind, SymbolKind> = {
  workflow: SymbolKind.Package,
  flow: SymbolKind.Module,
  step: SymbolKind.Event,
  function: SymbolKind.Function,
  contract: SymbolKind.Struct,
  field: SymbolKind.Field,
  input: SymbolKind.Variable,
};

export function completionItem(item: CompletionItemInfo, positions: PositionIndex): CompletionItem {
  const out: CompletionItem = { label: item.label, kind: COMPLETION_KIND[item.kind] };
  if (item.detail !== undefined) out.detail = item.detail;
  if (item.documentation !== undefined) {
    out.documentation = { kind: MarkupKind.Markdown, value: item.documentation };
  }
  if (item.sortText !== undefined) out.sortText = item.sortText;
  const newText = item.insertText ?? item.label;
  if (item.replace !== undefined) {
    // Clients filter by the label (the default filterText) against the text the edit replaces.
    out.textEdit = { range: positions.range(item.replace), newText };
  } else if (item.insertText !== undefined) out.insertText = item.insertText;
  return out;
}

export function hover(info: HoverInfo, positions: PositionIndex): Hover {
  return {
    contents: { kind: MarkupKind.Markdown, value: info.contents },
    range: positions.range(info.range),
  };
}

export function signatureHelp(info: SignatureHelpInfo): SignatureHelp {
  return {
    signatures: info.signatures.map((s) => ({
      label: s.label,
      ...(s.documentation !== undefined
        ? { documentation: { kind: MarkupKind.Markdown, value: s.documentation } }
        : {}),
      parameters: s.parameters.map((p) => ({
        label: [p.label[0], p.label[1]] as [number, number],
        ...(p.documentation !== undefined
          ? { documentation: { kind: MarkupKind.Markdown, value: p.documentation } }
          : {}),
      })),
    })),
    activeSignature: info.activeSignature,
    activeParameter: info.activeParameter,
  };
}

export function documentSymbol(info: DocumentSymbolInfo, positions: PositionIndex): DocumentSymbol {
  const range = positions.range(info.range);
  // Clients reject a selection range outside the symbol's range: fall back to the whole range.
  const selection = contains(info.range, info.selectionRange) ? info.selectionRange : info.range;
  return {
    name: info.name === "" ? "(unnamed)" : info.name,
    kind: SYMBOL_KIND[info.kind],
    ...(info.detail !== "" ? { detail: info.detail } : {}),
    range,
    selectionRange: positions.range(selection),
    children: info.children.map((c) => documentSymbol(c, positions)),
  };
}

/** Folding works on lines: a range that starts and ends on one line folds nothing and is left out. */
export function foldingRange(info: FoldingRangeInfo, positions: PositionIndex): FoldingRange | null {
  const start = positions.positionAt(info.range.start).line;
  const end = positions.positionAt(Math.max(info.range.start, info.range.end)).line;
  if (end <= start) return null;
  const out: FoldingRange = { startLine: start, endLine: end };
  if (info.kind === "comment") out.kind = FoldingRangeKind.Comment;
  else if (info.kind === "region") out.kind = FoldingRangeKind.Region;
  return out;
}

export function textEdit(edit: OffsetEdit, positions: PositionIndex): TextEdit {
  return { range: positions.range(edit.range), newText: edit.newText };
}

const TOKEN_INDEX = new Map<TokenType, number>(TOKEN_TYPES.map((t, i) => [t, i]));

/**
 * The LSP's relative encoding (5 integers per token: line delta, start delta, length, type, no
 * modifiers). Tokens are sorted, overlaps dropped, and a token spanning lines (inside a
 * multi-line scalar) is split per line: clients need not support multi-line tokens.
 */
export function semanticTokens(
  tokens: readonly SemanticTokenInfo[],
  positions: PositionIndex,
): SemanticTokens {
  const sorted = [...tokens].sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  const data: number[] = [];
  let prevLine = 0;
  let prevChar = 0;
  let lastEnd = -1;
  for (const token of sorted) {
    const type = TOKEN_INDEX.get(token.type);
    if (type === undefined || token.range.start < lastEnd || token.range.end <= token.range.start) continue;
    lastEnd = token.range.end;
    for (const piece of perLine(token.range, positions)) {
      const deltaLine = piece.line - prevLine;
      data.push(
        deltaLine,
        deltaLine === 0 ? piece.character - prevChar : piece.character,
        piece.length,
        type,
        0,
      );
      prevLine = piece.line;
      prevChar = piece.character;
    }
  }
  return { data };
}

function perLine(range: OffsetRange, positions: PositionIndex) {
  const start = positions.positionAt(range.start);
  const end = positions.positionAt(range.end);
  if (start.line === end.line)
    return [{ line: start.line, character: start.character, length: end.character - start.character }];
  const pieces: { line: number; character: number; length: number }[] = [];
  for (let line = start.line; line <= end.line; line++) {
    const from = line === start.line ? start.character : 0;
    const to =
      line === end.line
        ? end.character
        : positions.offsetAt({ line, character: Number.MAX_SAFE_INTEGER }) -
          positions.offsetAt({ line, character: 0 });
    if (to > from) pieces.push({ line, character: from, length: to - from });
  }
  return pieces;
}

function contains(outer: OffsetRange, inner: OffsetRange): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}
