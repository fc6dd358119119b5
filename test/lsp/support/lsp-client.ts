// A JSON-RPC client for the language server: in process over a pair of streams (fast; the server
// is the same code `stratumc lsp` runs) or over the stdio of a spawned `stratumc lsp`.
// `open` / `change` keep the document versions; `diagnostics` waits for the publication of a
// given version.
import { type ChildProcess, spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { createConnection } from "vscode-languageserver/node";
import {
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type InitializeResult,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type TextDocumentContentChangeEvent,
} from "vscode-languageserver-protocol/node";
import { type ServerOptions, startLanguageServer } from "../../../lsp/server";

export interface LspClient {
  readonly connection: ProtocolConnection;
  readonly initialize: InitializeResult;
  /** Opens `text` as `uri` (version 1); returns the uri. */
  open(uri: string, text: string): Promise<string>;
  /** Sends a change (full text, or incremental events) and returns the new version. */
  change(uri: string, changes: string | TextDocumentContentChangeEvent[]): Promise<number>;
  close(uri: string): Promise<void>;
  /** The diagnostics published for `uri` at `version` (default: the latest version sent). */
  diagnostics(uri: string, version?: number): Promise<PublishDiagnosticsParams>;
  /** Every publication received so far, in order. */
  readonly published: PublishDiagnosticsParams[];
  dispose(): Promise<void>;
}

export const SPEC_URI = "file:///work/spec.stratum.yaml";

async function connect(
  connection: ProtocolConnection,
  onDispose: () => Promise<void>,
  initializationOptions: unknown,
): Promise<LspClient> {
  const versions = new Map<string, number>();
  const published: PublishDiagnosticsParams[] = [];
  const waiters: { uri: string; version: number; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    for (const w of [...waiters]) {
      if (w.uri === p.uri && w.version === p.version) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  });
  connection.listen();
  const initialize = await connection.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities: {},
    initializationOptions,
  });
  await connection.sendNotification(InitializedNotification.type, {});
  return {
    connection,
    initialize,
    published,
    async open(uri, text) {
      versions.set(uri, 1);
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "yaml", version: 1, text },
      });
      return uri;
    },
    async change(uri, changes) {
      const version = (versions.get(uri) ?? 0) + 1;
      versions.set(uri, version);
      await connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: typeof changes === "string" ? [{ text: changes }] : changes,
      });
      return version;
    },
    async close(uri) {
      versions.delete(uri);
      await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    },
    diagnostics(uri, version) {
      const wanted = version ?? versions.get(uri) ?? 1;
      const already = published.find((p) => p.uri === uri && p.version === wanted);
      if (already !== undefined) return Promise.resolve(already);
      return new Promise((resolve) => waiters.push({ uri, version: wanted, resolve }));
    },
    dispose: onDispose,
  };
}

/** The server in this process over streams; debounce 0 unless given. */
export async function inProcessClient(
  options: ServerOptions = {},
  initializationOptions: unknown = undefined,
): Promise<LspClient> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  // Message readers (not raw streams): with a raw input stream the library ends the process when
  // the stream closes.
  const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startLanguageServer(server, { debounceMs: 0, ...options });
  const client = createProtocolConnection(
    new StreamMessageReader(toClient),
    new StreamMessageWriter(toServer),
  );
  return connect(
    client,
    async () => {
      client.dispose();
      server.dispose();
      toServer.end();
      toClient.end();
    },
    initializationOptions,
  );
}

/** `node bin/stratumc.cjs lsp` (build first: `npm run build`). */
export async function spawnedClient(
  bin: string,
  args: readonly string[] = ["lsp"],
  initializationOptions: unknown = undefined,
): Promise<LspClient & { readonly child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  // A server that dies before answering `initialize` (e.g. an unknown command) fails at once.
  const died = exited.then((code) => {
    throw new Error(`${bin} ${args.join(" ")} exited (${code}) before answering initialize: ${stderr}`);
  });
  const connected = connect(
    connection,
    async () => {
      if (child.exitCode === null) {
        await connection.sendRequest(ShutdownRequest.type).catch(() => undefined);
        await connection.sendNotification(ExitNotification.type).catch(() => undefined);
        await exited;
      }
      connection.dispose();
    },
    initializationOptions,
  );
  const client = await Promise.race([connected, died]);
  died.catch(() => undefined); // exiting later (shutdown, closed input) is expected
  return { ...client, child, exited };
}
