// A check worker (off-thread mode, off-thread-document.ts): holds one document's latest checked
// version and its IncrementalChecker. Messages are handled one at a time, in order: `check`
// checks a version (the worker is busy until it answers `checked`, with the version's protocol
// diagnostics when asked), `request` runs an editor service on the held tree, only if it is still
// the version the server asked about (otherwise the answer is null).

import type { Diagnostic as LspDiagnostic } from "vscode-languageserver/node";
import type { ReferenceVersion } from "../checker/index";
import { type CheckedDocument, CheckedDocuments, type CheckFunction } from "./checked-documents";
import { toLspDiagnostic } from "./diagnostics";
import { type Answers, answerRequest, type Method, type ServiceRequest } from "./requests";

interface CheckMessage {
  readonly kind: "check";
  readonly uri: string;
  readonly version: number;
  readonly text: string;
  /** Whether to send the version's diagnostics back (not when the check only primes the worker). */
  readonly diagnostics: boolean;
  /** Check with SPEC-NOT-PORTABLE (the client's `portable` initialization option, server.ts). */
  readonly portable?: ReferenceVersion;
}

interface RequestMessage {
  readonly kind: "request";
  readonly id: number;
  readonly version: number;
  readonly request: ServiceRequest;
}

export type ToWorker = CheckMessage | RequestMessage;

interface CheckedMessage {
  readonly kind: "checked";
  readonly version: number;
  readonly diagnostics: LspDiagnostic[] | null;
}

export interface AnswerMessage {
  readonly kind: "answer";
  readonly id: number;
  /** null when the worker no longer holds the version asked about. */
  readonly answer: Answers[Method] | null;
  /** The service threw (a bug): its message. */
  readonly failed?: string;
}

export type FromWorker = CheckedMessage | AnswerMessage;

/** The worker's end of the channel (a worker_threads parentPort or a MessagePort). */
export interface WorkerSidePort {
  postMessage(message: FromWorker): void;
  on(event: "message", listener: (message: unknown) => void): void;
}

/** Marks the workerData of a check worker (the language server's bundle starts itself as one). */
export const CHECK_WORKER_TAG = "stratumc-lsp-check-worker";

export function isCheckWorkerData(data: unknown): boolean {
  return typeof data === "object" && data !== null && (data as { role?: unknown }).role === CHECK_WORKER_TAG;
}

export function serveCheckWorker(port: WorkerSidePort, check?: CheckFunction): void {
  const documents = new CheckedDocuments(check);
  let held: CheckedDocument | null = null;
  port.on("message", (raw) => {
    const message = raw as ToWorker;
    if (message.kind === "check") {
      const { uri, version, text } = message;
      const portable = message.portable ?? false;
      if (documents.portable !== portable) documents.configure({ portable });
      held = documents.get({ uri, version, getText: () => text });
      const c = held;
      const diagnostics = message.diagnostics
        ? c.doc.check.diagnostics.map((d) => toLspDiagnostic(d, uri, c.positions))
        : null;
      port.postMessage({ kind: "checked", version, diagnostics });
      return;
    }
    const { id, version, request } = message;
    if (held === null || held.version !== version) {
      port.postMessage({ kind: "answer", id, answer: null });
      return;
    }
    try {
      port.postMessage({ kind: "answer", id, answer: answerRequest(held, request) });
    } catch (e) {
      port.postMessage({
        kind: "answer",
        id,
        answer: null,
        failed: e instanceof Error ? e.message : String(e),
      });
    }
  });
}
