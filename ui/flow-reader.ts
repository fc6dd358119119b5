// Where `stratumc ui`'s server gets what it shows: the flows list and the windows of one flow.
// Decoding a long flow's file and checking its spec take seconds (10,000 steps: about a second
// to decode, more to check the spec the first time), all of it synchronous: done on the server's
// own thread, every other request — the page's style sheet, the change events — would wait. The
// shipped CLI therefore reads flows in a worker thread (reader-worker.ts); from the sources
// (tests that build the handler in-process) the same FlowSource runs in place. Resolving a gate
// loads the flow the same way, so it runs there too.
import type { Worker } from "node:worker_threads";
import type { NodeHost } from "../host/index";
import { StoreUnavailableError } from "../interpreter/index";
import type {
  AuditRecord,
  FlowList,
  FlowPage,
  GateRequest,
  InboxView,
  ItemsPage,
  StepView,
} from "./api-types";
import type { FlowSource, Loaded } from "./flow-source";
import type { InboxQuery } from "./inbox-view";
import { type PageGateReply, resolvePageGate } from "./page-gate";
import { type ReaderWorkerData, startReaderWorker } from "./reader-start";
import type { PageWindow } from "./views";

export interface FlowReader {
  list(): Promise<FlowList>;
  inbox(query: InboxQuery): Promise<InboxView>;
  page(flowId: string, window: PageWindow): Promise<Loaded<FlowPage>>;
  steps(flowId: string, offset: number, limit: number): Promise<Loaded<ItemsPage<StepView>>>;
  audit(flowId: string, offset: number, limit: number): Promise<Loaded<ItemsPage<AuditRecord>>>;
  /** `by`: the signed-in person's name (`--users`), recorded with the resolution; null with the single token. */
  gate(flowId: string, gate: GateRequest, by: string | null): Promise<PageGateReply>;
  close(): void;
}

/** What the worker is asked: a FlowSource method and its arguments. */
export type ReaderRequest =
  | { readonly id: number; readonly method: "list"; readonly args: [] }
  | { readonly id: number; readonly method: "inbox"; readonly args: [InboxQuery] }
  | { readonly id: number; readonly method: "page"; readonly args: [string, PageWindow] }
  | { readonly id: number; readonly method: "steps" | "audit"; readonly args: [string, number, number] }
  | { readonly id: number; readonly method: "gate"; readonly args: [string, GateRequest, string | null] };

/** What it answers: the value, or the failure (a store that cannot be reached keeps its kind). */
export type ReaderAnswer =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | {
      readonly id: number;
      readonly ok: false;
      readonly message: string;
      readonly unavailable: { readonly where: string; readonly reason: string } | null;
    };

/** The FlowSource itself, on this thread. */
export function inPlaceReader(source: FlowSource, flowHost: NodeHost): FlowReader {
  return {
    list: () => source.list(),
    inbox: (query) => source.inbox(query),
    page: (flowId, window) => source.page(flowId, window),
    steps: (flowId, offset, limit) => source.steps(flowId, offset, limit),
    audit: (flowId, offset, limit) => source.audit(flowId, offset, limit),
    gate: (flowId, gate, by) => resolvePageGate(flowHost, flowId, gate, by),
    close: () => undefined,
  };
}

/**
 * A FlowSource in a worker thread running `file` (dist/ui-reader.cjs); restarted when it dies.
 * `early`: that worker already started for the same `file` and `data` (reader-start.ts), used first.
 */
export function workerReader(file: string, data: ReaderWorkerData, early?: Worker): FlowReader {
  let worker: Worker | null = null;
  let first = early;
  let nextId = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  function failAll(error: Error): void {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  }

  function started(): Worker {
    if (worker !== null) return worker;
    const w = first ?? startReaderWorker(file, data);
    first = undefined;
    w.on("message", (answer: ReaderAnswer) => {
      const waiting = pending.get(answer.id);
      if (waiting === undefined) return;
      pending.delete(answer.id);
      if (answer.ok) waiting.resolve(answer.value);
      else if (answer.unavailable !== null)
        waiting.reject(new StoreUnavailableError(answer.unavailable.where, answer.unavailable.reason));
      else waiting.reject(new Error(answer.message));
    });
    const gone = (error: Error): void => {
      if (worker === w) worker = null;
      failAll(error);
    };
    w.on("error", gone);
    w.on("exit", (code) => gone(new Error(`the flow reader stopped (exit ${code})`)));
    worker = w;
    return w;
  }

  function ask<T>(method: ReaderRequest["method"], args: ReaderRequest["args"]): Promise<T> {
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      started().postMessage({ id, method, args });
    });
  }

  // Started at once: loading its bundle overlaps the person opening the page.
  started();
  return {
    list: () => ask("list", []),
    inbox: (query) => ask("inbox", [query]),
    page: (flowId, window) => ask("page", [flowId, window]),
    steps: (flowId, offset, limit) => ask("steps", [flowId, offset, limit]),
    audit: (flowId, offset, limit) => ask("audit", [flowId, offset, limit]),
    gate: (flowId, gate, by) => ask("gate", [flowId, gate, by]),
    close() {
      const w = worker;
      worker = null;
      failAll(new Error("the server is closing"));
      void w?.terminate();
    },
  };
}
