// The editor requests the server answers from a checked document, in two halves: `answerRequest`
// runs the checker's service on the tree (in this thread for a small document, in the worker that
// holds the tree for a huge one) and gives plain, cloneable results on offsets of the checked
// text; `toProtocol` (always in the server's thread) maps those offsets to the current text
// (version-map.ts) and converts them to protocol objects. Exact requests (rename, quick fixes)
// are only ever answered from the current version.
import {
  type CodeAction,
  type CompletionList,
  type Definition,
  type DocumentSymbol,
  type FoldingRange,
  type Hover,
  type Location,
  LSPErrorCodes,
  type Range,
  ResponseError,
  type SemanticTokens,
  type SignatureHelp,
  type WorkspaceEdit,
} from "vscode-languageserver/node";
import type {
  CompletionItemInfo,
  DocumentSymbolInfo,
  FoldingRangeInfo,
  HoverInfo,
  OffsetRange,
  RenameResult,
  SemanticTokenInfo,
  SignatureHelpInfo,
} from "../checker/index";
import {
  completionsAt,
  definitionAt,
  documentSymbols,
  foldingRanges,
  hoverAt,
  prepareRename,
  referencesAt,
  renameAt,
  semanticTokens,
  signatureHelpAt,
} from "../checker/index";
import type { CheckedDocument } from "./checked-documents";
import { quickFixes } from "./code-actions";
import * as convert from "./convert";
import type { PositionIndex } from "./positions";
import { IDENTITY, type VersionMap } from "./version-map";

/** What each request sends to the holder of the tree (offsets into the checked text). */
export interface Requests {
  hover: { readonly offset: number };
  completion: { readonly offset: number };
  signatureHelp: { readonly offset: number };
  definition: { readonly offset: number };
  references: { readonly offset: number; readonly includeDeclaration: boolean };
  documentSymbol: Record<string, never>;
  foldingRange: Record<string, never>;
  semanticTokens: Record<string, never>;
  prepareRename: { readonly offset: number };
  rename: { readonly offset: number; readonly newName: string };
  codeAction: { readonly range: Range; readonly only?: readonly string[] };
}

export type Method = keyof Requests;

/** What the holder answers (plain data: it crosses threads). */
export interface Answers {
  hover: HoverInfo | null;
  completion: readonly CompletionItemInfo[];
  signatureHelp: SignatureHelpInfo | null;
  definition: readonly OffsetRange[];
  references: readonly OffsetRange[];
  documentSymbol: readonly DocumentSymbolInfo[];
  foldingRange: readonly FoldingRangeInfo[];
  semanticTokens: readonly SemanticTokenInfo[];
  prepareRename: { readonly range: OffsetRange; readonly placeholder: string } | null;
  rename: RenameResult;
  codeAction: CodeAction[];
}

/** The protocol results (null: nothing to answer, or an answer withheld). */
export interface Results {
  hover: Hover | null;
  completion: CompletionList;
  signatureHelp: SignatureHelp | null;
  definition: Definition | null;
  references: Location[] | null;
  documentSymbol: DocumentSymbol[] | null;
  foldingRange: FoldingRange[] | null;
  semanticTokens: SemanticTokens | null;
  prepareRename: { range: Range; placeholder: string } | null;
  rename: WorkspaceEdit | null;
  codeAction: CodeAction[] | null;
}

/**
 * The answer when no tree can give one (a huge document before its first check, a position in
 * text changed since the last check). An empty completion list is incomplete: clients ask again.
 */
export const WITHHELD: { readonly [M in Method]: Results[M] } = {
  hover: null,
  completion: { isIncomplete: true, items: [] },
  signatureHelp: null,
  definition: null,
  references: null,
  documentSymbol: null,
  foldingRange: null,
  semanticTokens: null,
  prepareRename: null,
  rename: null,
  codeAction: null,
};

export interface ServiceRequest<M extends Method = Method> {
  readonly method: M;
  readonly params: Requests[M];
}

/** Requests whose answers edit the text: never answered from an older version. */
export const EXACT_METHODS: ReadonlySet<Method> = new Set<Method>(["prepareRename", "rename", "codeAction"]);

type Answerer<M extends Method> = (c: CheckedDocument, params: Requests[M]) => Answers[M];

const ANSWER: { readonly [M in Method]: Answerer<M> } = {
  hover: (c, p) => hoverAt(c.doc, p.offset),
  completion: (c, p) => completionsAt(c.doc, p.offset),
  signatureHelp: (c, p) => signatureHelpAt(c.doc, p.offset),
  definition: (c, p) => definitionAt(c.doc, p.offset),
  references: (c, p) => referencesAt(c.doc, p.offset, p.includeDeclaration),
  documentSymbol: (c) => documentSymbols(c.doc),
  foldingRange: (c) => foldingRanges(c.doc),
  semanticTokens: (c) => semanticTokens(c.doc),
  prepareRename: (c, p) => prepareRename(c.doc, p.offset),
  rename: (c, p) => renameAt(c.doc, p.offset, p.newName),
  codeAction: (c, p) => quickFixes(c, p.range, p.only),
};

export function answerRequest<M extends Method>(c: CheckedDocument, request: ServiceRequest<M>): Answers[M] {
  const answer = ANSWER[request.method] as Answerer<M>;
  return answer(c, request.params);
}

/** Where an answer lands: the current text's positions and the map from the checked text. */
export interface AnswerView {
  readonly uri: string;
  readonly positions: PositionIndex;
  readonly map: VersionMap;
}

type Converter<M extends Method> = (answer: Answers[M], view: AnswerView) => Results[M];

const PROTOCOL: { readonly [M in Method]: Converter<M> } = {
  hover: (info, { map, positions }) => {
    const range = info === null ? null : map.toCurrent(info.range);
    return info === null || range === null ? null : convert.hover({ ...info, range }, positions);
  },
  completion: (items, { map, positions }) => ({
    // From an older tree: incomplete, so the client asks again as the user types on.
    isIncomplete: map !== IDENTITY,
    items: items.flatMap((item) => {
      if (item.replace === undefined) return [convert.completionItem(item, positions)];
      const replace = map.toCurrent(item.replace);
      return replace === null ? [] : [convert.completionItem({ ...item, replace }, positions)];
    }),
  }),
  signatureHelp: (info) => (info === null ? null : convert.signatureHelp(info)),
  definition: (ranges, view) => locations(ranges, view),
  references: (ranges, view) => locations(ranges, view),
  documentSymbol: (symbols, { map, positions }) =>
    mapSymbols(symbols, map).map((s) => convert.documentSymbol(s, positions)),
  foldingRange: (folds, { map, positions }) =>
    folds.flatMap((f) => {
      const range = map.enclosingToCurrent(f.range);
      const out = range === null ? null : convert.foldingRange({ ...f, range }, positions);
      return out === null ? [] : [out];
    }),
  semanticTokens: (tokens, { map, positions }) =>
    convert.semanticTokens(
      tokens.flatMap((t) => {
        const range = map.toCurrent(t.range);
        return range === null ? [] : [{ ...t, range }];
      }),
      positions,
    ),
  // Exact requests: the checked text is the current one (the map is the identity).
  prepareRename: (found, { positions }) =>
    found === null ? null : { range: positions.range(found.range), placeholder: found.placeholder },
  rename: (result, { uri, positions }) => {
    if (!result.ok) throw new ResponseError(LSPErrorCodes.RequestFailed, result.message);
    return { changes: { [uri]: result.edits.map((e) => convert.textEdit(e, positions)) } };
  },
  codeAction: (actions) => actions,
};

export function toProtocol<M extends Method>(method: M, answer: Answers[M], view: AnswerView): Results[M] {
  const converter = PROTOCOL[method] as Converter<M>;
  return converter(answer, view);
}

function locations(ranges: readonly OffsetRange[], { uri, map, positions }: AnswerView): Location[] {
  return ranges.flatMap((r) => {
    const range = map.toCurrent(r);
    return range === null ? [] : [{ uri, range: positions.range(range) }];
  });
}

/** Symbols whose name or extent crosses the change are left out, with their children. */
function mapSymbols(symbols: readonly DocumentSymbolInfo[], map: VersionMap): DocumentSymbolInfo[] {
  return symbols.flatMap((s) => {
    const range = map.enclosingToCurrent(s.range);
    const selectionRange = map.toCurrent(s.selectionRange);
    if (range === null || selectionRange === null) return [];
    return [{ ...s, range, selectionRange, children: mapSymbols(s.children, map) }];
  });
}
