// The worker thread of `stratumc ui` that reads flows (flow-reader.ts): a FlowSource over the same
// store as the server's, answering the server's requests one message each (gate resolutions too:
// they load the flow the same way). Built as
// dist/ui-reader.cjs; it does its work only when started as a worker.
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { composeHostLazily, type NodeHost } from "../host/index";
import { StoreUnavailableError } from "../interpreter/index";
import type { ReaderAnswer, ReaderRequest, ReaderWorkerData } from "./flow-reader";
import { FlowSource } from "./flow-source";
import { resolvePageGate } from "./page-gate";

function serve(data: ReaderWorkerData): void {
  const port = parentPort;
  if (port === null) return;
  // The listener is attached at once so that no request waits for the host; each answer waits
  // for it instead (the server composed the same host before it started this worker).
  const reading = composeHostLazily({ cwd: data.cwd, env: data.env }).then((flowHost) => ({
    flowHost,
    source: new FlowSource(flowHost),
  }));
  port.on("message", (request: ReaderRequest) => {
    void reading
      .then(({ flowHost, source }) => answer(source, flowHost, request))
      .then((message) => port.postMessage(message));
  });
}

async function answer(source: FlowSource, flowHost: NodeHost, request: ReaderRequest): Promise<ReaderAnswer> {
  try {
    if (request.method === "inbox")
      return { id: request.id, ok: true, value: await source.inbox(...request.args) };
    const value =
      request.method === "list"
        ? await source.list()
        : request.method === "page"
          ? await source.page(...request.args)
          : request.method === "gate"
            ? await resolvePageGate(flowHost, ...request.args)
            : await source[request.method](...request.args);
    return { id: request.id, ok: true, value };
  } catch (e) {
    return {
      id: request.id,
      ok: false,
      message: e instanceof Error ? e.message : String(e),
      unavailable: e instanceof StoreUnavailableError ? { where: e.where, reason: e.reason } : null,
    };
  }
}

if (
  !isMainThread &&
  (workerData as { readonly stratumcUiReader?: unknown } | null)?.stratumcUiReader === true
)
  serve(workerData as ReaderWorkerData);
