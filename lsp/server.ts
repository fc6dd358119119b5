// The language server (issue 6): a protocol adapter over the checker and its editor services
// (checker/services/). It keeps the open documents (incremental sync), checks each version at most
// once, publishes exactly `stratumc check`'s diagnostics after a debounce, and answers every
// request by converting positions to offsets, calling a service and converting the result back.
import {
  type Connection,
  type InitializeParams,
  type InitializeResult,
  LSPErrorCodes,
  ResponseError,
  type TextDocumentPositionParams,
  TextDocumentSyncKind,
  TextDocuments,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
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
  TOKEN_TYPES,
} from "../checker/services/index";
import { type CheckedDocument, CheckedDocuments, type CheckFunction } from "./checked-documents";
import { quickFixes } from "./code-actions";
import * as convert from "./convert";
import { DEFAULT_DEBOUNCE_MS, DiagnosticScheduler, type Timers } from "./diagnostic-scheduler";
import { toLspDiagnostic } from "./diagnostics";

export interface ServerOptions {
  /** Debounce before diagnostics (ms); the client may override it with initializationOptions.debounceMs. */
  readonly debounceMs?: number;
  readonly timers?: Timers;
  /** The checker (tests count calls through it). */
  readonly check?: CheckFunction;
  readonly name?: string;
  readonly version?: string;
}

/** Completion triggers: `$.` paths and `result.` fields, values after `key:`, list items, names after a space. */
export const COMPLETION_TRIGGERS = [".", "$", ":", " "];
export const SIGNATURE_TRIGGERS = ["(", ","];

export function startLanguageServer(connection: Connection, options: ServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument);
  const checked = new CheckedDocuments(options.check);
  let scheduler = new DiagnosticScheduler(hooks(), options.debounceMs ?? DEFAULT_DEBOUNCE_MS, options.timers);

  function hooks() {
    return {
      currentVersion: (uri: string) => documents.get(uri)?.version,
      publish: (uri: string, version: number) => {
        const document = documents.get(uri);
        if (document === undefined || document.version !== version) return;
        const c = checked.get(document);
        const diagnostics = c.doc.check.diagnostics.map((d) => toLspDiagnostic(d, uri, c.positions));
        void connection.sendDiagnostics({ uri, version, diagnostics });
      },
    };
  }

  /** The checked current version of the request's document (checked now if it was not yet). */
  function current(uri: string): CheckedDocument {
    const document = documents.get(uri);
    if (document === undefined)
      throw new ResponseError(LSPErrorCodes.RequestFailed, `document not open: ${uri}`);
    return checked.get(document);
  }

  function at(params: TextDocumentPositionParams): { c: CheckedDocument; offset: number } {
    const c = current(params.textDocument.uri);
    return { c, offset: c.positions.offsetAt(params.position) };
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const configured = debounceFrom(params.initializationOptions);
    if (configured !== undefined) {
      scheduler.dispose();
      scheduler = new DiagnosticScheduler(hooks(), configured, options.timers);
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: COMPLETION_TRIGGERS, resolveProvider: false },
        hoverProvider: true,
        signatureHelpProvider: { triggerCharacters: SIGNATURE_TRIGGERS, retriggerCharacters: [","] },
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        semanticTokensProvider: {
          legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [] },
          full: true,
        },
        codeActionProvider: { codeActionKinds: ["quickfix"] },
      },
      serverInfo: {
        name: options.name ?? "stratumc",
        ...(options.version ? { version: options.version } : {}),
      },
    };
  });

  // Fired on open too (TextDocuments reports an opened document's content as a change).
  documents.onDidChangeContent((e) => scheduler.schedule(e.document.uri, e.document.version));
  documents.onDidClose((e) => {
    scheduler.cancel(e.document.uri);
    checked.forget(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onCompletion((params) => {
    const { c, offset } = at(params);
    return {
      isIncomplete: false,
      items: completionsAt(c.doc, offset).map((i) => convert.completionItem(i, c.positions)),
    };
  });
  connection.onHover((params) => {
    const { c, offset } = at(params);
    const info = hoverAt(c.doc, offset);
    return info === null ? null : convert.hover(info, c.positions);
  });
  connection.onSignatureHelp((params) => {
    const { c, offset } = at(params);
    const info = signatureHelpAt(c.doc, offset);
    return info === null ? null : convert.signatureHelp(info);
  });
  connection.onDefinition((params) => {
    const { c, offset } = at(params);
    return definitionAt(c.doc, offset).map((r) => ({ uri: c.uri, range: c.positions.range(r) }));
  });
  connection.onReferences((params) => {
    const { c, offset } = at(params);
    return referencesAt(c.doc, offset, params.context.includeDeclaration).map((r) => ({
      uri: c.uri,
      range: c.positions.range(r),
    }));
  });
  connection.onPrepareRename((params) => {
    const { c, offset } = at(params);
    const found = prepareRename(c.doc, offset);
    return found === null ? null : { range: c.positions.range(found.range), placeholder: found.placeholder };
  });
  connection.onRenameRequest((params) => {
    const { c, offset } = at(params);
    const result = renameAt(c.doc, offset, params.newName);
    if (!result.ok) throw new ResponseError(LSPErrorCodes.RequestFailed, result.message);
    return { changes: { [c.uri]: result.edits.map((e) => convert.textEdit(e, c.positions)) } };
  });
  connection.onDocumentSymbol((params) => {
    const c = current(params.textDocument.uri);
    return documentSymbols(c.doc).map((s) => convert.documentSymbol(s, c.positions));
  });
  connection.onFoldingRanges((params) => {
    const c = current(params.textDocument.uri);
    return foldingRanges(c.doc)
      .map((f) => convert.foldingRange(f, c.positions))
      .filter((f) => f !== null);
  });
  connection.languages.semanticTokens.on((params) => {
    const c = current(params.textDocument.uri);
    return convert.semanticTokens(semanticTokens(c.doc), c.positions);
  });
  connection.onCodeAction((params) =>
    quickFixes(current(params.textDocument.uri), params.range, params.context.only),
  );
  connection.onShutdown(() => scheduler.dispose());

  documents.listen(connection);
  connection.listen();
}

/** `initializationOptions.debounceMs`: a finite number of milliseconds ≥ 0 (anything else is ignored). */
function debounceFrom(init: unknown): number | undefined {
  if (typeof init !== "object" || init === null) return undefined;
  const value: unknown = (init as { debounceMs?: unknown }).debounceMs;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}
