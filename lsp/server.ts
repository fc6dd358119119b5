// The language server: a protocol adapter over the checker and its editor services
// (checker/services/). It keeps the open documents (incremental sync), checks each version at most
// once, publishes exactly `stratumc check`'s diagnostics after a debounce, and answers every
// request by converting positions to offsets, calling a service and converting the result back
// (requests.ts). Huge documents are checked by workers, off the request path, and read-only
// requests on them are answered from the last checked tree (off-thread-document.ts).
import {
  type CancellationToken,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  LSPErrorCodes,
  type Position,
  ResponseError,
  TextDocumentSyncKind,
  TextDocuments,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import {
  DEFAULT_PORTABLE_VERSION,
  portableTarget,
  REFERENCE_VERSIONS,
  type ReferenceVersion,
  TOKEN_TYPES,
} from "../checker/index";
import { CheckedDocuments, type CheckFunction } from "./checked-documents";
import { DEFAULT_DEBOUNCE_MS, DiagnosticScheduler, type Timers } from "./diagnostic-scheduler";
import { toLspDiagnostic } from "./diagnostics";
import { OffThreadDocument } from "./off-thread-document";
import { PositionIndex } from "./positions";
import {
  answerRequest,
  EXACT_METHODS,
  type Method,
  type Requests,
  type Results,
  toProtocol,
  WITHHELD,
} from "./requests";
import { isScenarioDocument, scenarioDiagnostics } from "./scenario-documents";
import { IDENTITY } from "./version-map";
import { inThreadWorkers, type WorkerFactory } from "./workers";

export interface ServerOptions {
  /** Debounce before diagnostics (ms); the client may override it with initializationOptions.debounceMs. */
  readonly debounceMs?: number;
  /**
   * Report SPEC-NOT-PORTABLE, as `stratumc check --portable[=VERSION]` (true: the default version;
   * default false); the client may set it with initializationOptions.portable.
   */
  readonly portable?: boolean | ReferenceVersion;
  readonly timers?: Timers;
  /** The checker of documents checked in this thread (tests count calls through it). */
  readonly check?: CheckFunction;
  /** Huge documents: checked by workers, off the request path (off-thread-document.ts). */
  readonly offThread?: OffThreadOptions;
  readonly name?: string;
  readonly version?: string;
}

interface OffThreadOptions {
  /** Documents of at least this many UTF-16 code units (default DEFAULT_OFF_THREAD_MIN_LENGTH). */
  readonly minLength?: number;
  /** Default: the worker code in this thread (serve-stdio.ts passes real worker threads). */
  readonly workers?: WorkerFactory;
}

/**
 * Below this size a document is checked in the server's thread (exact answers, ~0.1 s for a full
 * check at this size); from it on, by workers ("Huge documents" in the history of docs/performance.md).
 */
const DEFAULT_OFF_THREAD_MIN_LENGTH = 256 * 1024;

/** Completion triggers: `$.` paths and `result.` fields, values after `key:`, list items, names after a space. */
const COMPLETION_TRIGGERS = [".", "$", ":", " "];
const SIGNATURE_TRIGGERS = ["(", ","];

/** Builds a request's parameters from protocol positions (null: the position has no counterpart). */
type Build<M extends Method> = (offsetAt: (position: Position) => number | null) => Requests[M] | null;

export interface LanguageServer {
  /** Ends every check worker (the process's exit does it too). */
  dispose(): void;
}

export function startLanguageServer(connection: Connection, options: ServerOptions = {}): LanguageServer {
  const documents = new TextDocuments(TextDocument);
  let portable: ReferenceVersion | false = portableTarget(options.portable) ?? false;
  const checked = new CheckedDocuments(options.check, { portable });
  const minLength = options.offThread?.minLength ?? DEFAULT_OFF_THREAD_MIN_LENGTH;
  const workers = options.offThread?.workers ?? inThreadWorkers(options.check);
  const huge = new Map<string, OffThreadDocument>();
  const positions = new Map<string, { readonly version: number; readonly index: PositionIndex }>();
  let scheduler = new DiagnosticScheduler(hooks(), options.debounceMs ?? DEFAULT_DEBOUNCE_MS, options.timers);

  function hooks() {
    return {
      currentVersion: (uri: string) => documents.get(uri)?.version,
      publish: (uri: string, version: number) => {
        const document = documents.get(uri);
        if (document === undefined || document.version !== version) return;
        if (isScenarioDocument(uri)) {
          const open = (other: string) => documents.get(other)?.getText();
          const diagnostics = scenarioDiagnostics(uri, document.getText(), positionsOf(document), open);
          void connection.sendDiagnostics({ uri, version, diagnostics });
          return;
        }
        if (isHuge(document)) {
          offThread(uri).check(version, document.getText());
          return;
        }
        const c = checked.get(document);
        const diagnostics = c.doc.check.diagnostics.map((d) => toLspDiagnostic(d, uri, c.positions));
        void connection.sendDiagnostics({ uri, version, diagnostics });
      },
    };
  }

  /** Whether a version is checked off-thread; a document changing mode drops its other state. */
  function isHuge(document: TextDocument): boolean {
    const off = document.getText().length >= minLength;
    if (off) checked.forget(document.uri);
    else closeOffThread(document.uri);
    return off;
  }

  function offThread(uri: string): OffThreadDocument {
    let doc = huge.get(uri);
    if (doc === undefined) {
      doc = new OffThreadDocument(
        uri,
        workers,
        {
          currentVersion: () => documents.get(uri)?.version,
          publish: (version, diagnostics) => void connection.sendDiagnostics({ uri, version, diagnostics }),
        },
        portable,
      );
      huge.set(uri, doc);
    }
    return doc;
  }

  function closeOffThread(uri: string): void {
    huge.get(uri)?.dispose();
    huge.delete(uri);
    positions.delete(uri);
  }

  function positionsOf(document: TextDocument): PositionIndex {
    const cached = positions.get(document.uri);
    if (cached !== undefined && cached.version === document.version) return cached.index;
    const index = new PositionIndex(document.getText());
    positions.set(document.uri, { version: document.version, index });
    return index;
  }

  /**
   * A request on the document's current version: in this thread for a small document; for a huge
   * one, from the newest tree a worker holds (edit requests: from the current version's tree).
   */
  function answer<M extends Method>(
    method: M,
    uri: string,
    token: CancellationToken,
    build: Build<NoInfer<M>>,
  ): Results[M] | Promise<Results[M]> {
    const document = documents.get(uri);
    if (document === undefined)
      throw new ResponseError(LSPErrorCodes.RequestFailed, `document not open: ${uri}`);
    // The spec services do not apply to a scenario test file.
    if (isScenarioDocument(uri)) return WITHHELD[method];
    if (!isHuge(document)) {
      const c = checked.get(document);
      const params = build((p) => c.positions.offsetAt(p));
      if (params === null) return WITHHELD[method];
      return toProtocol(method, answerRequest(c, { method, params }), {
        uri,
        positions: c.positions,
        map: IDENTITY,
      });
    }
    const index = positionsOf(document);
    const current = { version: document.version, text: document.getText(), positions: index };
    const doc = offThread(uri);
    const run = EXACT_METHODS.has(method) ? doc.exact.bind(doc) : doc.ask.bind(doc);
    return run(method, current, (toChecked) => build((p) => toChecked(index.offsetAt(p))), token).then(
      (result) => result ?? WITHHELD[method],
    );
  }

  /** The parameters of a request at one position. */
  function at(position: Position): (offsetAt: (p: Position) => number | null) => { offset: number } | null {
    return (offsetAt) => {
      const offset = offsetAt(position);
      return offset === null ? null : { offset };
    };
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const configuredPortable = portableFrom(params.initializationOptions);
    if (configuredPortable !== undefined && configuredPortable !== portable) {
      portable = configuredPortable;
      checked.configure({ portable });
    }
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
  documents.onDidChangeContent((e) => {
    huge.get(e.document.uri)?.changed(e.document.version);
    scheduler.schedule(e.document.uri, e.document.version);
  });
  documents.onDidClose((e) => {
    scheduler.cancel(e.document.uri);
    checked.forget(e.document.uri);
    closeOffThread(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onCompletion((p, token) => answer("completion", p.textDocument.uri, token, at(p.position)));
  connection.onHover((p, token) => answer("hover", p.textDocument.uri, token, at(p.position)));
  connection.onSignatureHelp((p, token) =>
    answer("signatureHelp", p.textDocument.uri, token, at(p.position)),
  );
  connection.onDefinition((p, token) => answer("definition", p.textDocument.uri, token, at(p.position)));
  connection.onReferences((p, token) =>
    answer("references", p.textDocument.uri, token, (offsetAt) => {
      const offset = offsetAt(p.position);
      return offset === null ? null : { offset, includeDeclaration: p.context.includeDeclaration };
    }),
  );
  connection.onPrepareRename((p, token) =>
    answer("prepareRename", p.textDocument.uri, token, at(p.position)),
  );
  connection.onRenameRequest((p, token) =>
    answer("rename", p.textDocument.uri, token, (offsetAt) => {
      const offset = offsetAt(p.position);
      return offset === null ? null : { offset, newName: p.newName };
    }),
  );
  connection.onDocumentSymbol((p, token) => answer("documentSymbol", p.textDocument.uri, token, () => ({})));
  connection.onFoldingRanges((p, token) => answer("foldingRange", p.textDocument.uri, token, () => ({})));
  connection.languages.semanticTokens.on((p, token) =>
    answer("semanticTokens", p.textDocument.uri, token, () => ({})),
  );
  connection.onCodeAction((p, token) =>
    answer("codeAction", p.textDocument.uri, token, () => ({ range: p.range, only: p.context.only })),
  );
  const dispose = () => {
    scheduler.dispose();
    for (const uri of [...huge.keys()]) closeOffThread(uri);
  };
  connection.onShutdown(dispose);

  documents.listen(connection);
  connection.listen();
  return { dispose };
}

/**
 * `initializationOptions.portable` (or `"stratumc.portable"`, as an editor's settings name it): a
 * boolean (true: the default version) or a reference version such as `"0.2.50"`; anything else is
 * ignored.
 */
function portableFrom(init: unknown): ReferenceVersion | false | undefined {
  if (typeof init !== "object" || init === null) return undefined;
  const options = init as { portable?: unknown; "stratumc.portable"?: unknown };
  const value = options.portable ?? options["stratumc.portable"];
  if (value === true) return DEFAULT_PORTABLE_VERSION;
  if (value === false) return false;
  return REFERENCE_VERSIONS.find((v) => v === value);
}

/** `initializationOptions.debounceMs`: a finite number of milliseconds ≥ 0 (anything else is ignored). */
function debounceFrom(init: unknown): number | undefined {
  if (typeof init !== "object" || init === null) return undefined;
  const value: unknown = (init as { debounceMs?: unknown }).debounceMs;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}
