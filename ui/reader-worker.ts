// The worker thread of `stratumc ui` that reads flows (flow-reader.ts): a FlowSource over the same
// store as the server's, answering the server's requests one message each (gate resolutions too:
// they load the flow the same way). Built as
// dist/ui-reader.cjs; it does its work only when started as a worker.
import { isMainThread, parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { composeHostLazily, type NodeHost } from "../host/index";
import { StoreUnavailableError } from "../interpreter/index";
import { warmFirstPage } from "./first-page-warmup";
import type { ReaderAnswer, ReaderRequest } from "./flow-reader";
import { FlowSource } from "./flow-source";
import { resolvePageGate } from "./page-gate";
import type { ReaderWorkerData } from "./reader-start";

function serve(data: ReaderWorkerData): void {
  const port = parentPort;
  if (port === null) return;
  let asked = false;
  const take = (request: ReaderRequest): void => {
    asked = true;
    void reading
      .then(({ flowHost, source }) => answer(source, flowHost, request))
      .then((message) => port.postMessage(message));
  };
  // The listener is attached at once so that no request waits for the host; each answer waits
  // for it instead (the server composes the same host while this worker starts). Once the host is
  // there, a worker that has not been asked anything yet builds the first page of the store's most
  // recently changed long flow (FlowSource.prefetchNewest): the page of a fresh server asks for a
  // flow a few hundred ms later, most often that one. Without such a flow it warms the first
  // answer's code on a made-up one (first-page-warmup.ts). A request sent while the worker was
  // starting is still queued on the port at that point (its event comes later): it is taken from
  // the queue instead, and neither is made.
  const reading = composeHostLazily({ cwd: data.cwd, env: data.env }).then(
    (flowHost) =>
      new Promise<{ flowHost: NodeHost; source: FlowSource }>((resolve) =>
        setImmediate(() => {
          const source = new FlowSource(flowHost);
          const ready = { flowHost, source };
          const queued = asked ? undefined : receiveMessageOnPort(port);
          if (queued !== undefined) take(queued.message as ReaderRequest);
          if (queued !== undefined || asked) {
            resolve(ready);
            return;
          }
          // Requests that come meanwhile wait for it: the flow's own would otherwise read it twice.
          void source
            .prefetchNewest()
            .catch(() => false)
            .then((built) => {
              if (!built) warmFirstPage();
              resolve(ready);
            });
        }),
      ),
  );
  port.on("message", take);
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
