// The worker thread of `stratumc ui` that reads flows (flow-reader.ts): a FlowSource over the same
// store as the server's, answering the server's requests one message each (gate resolutions too:
// they load the flow the same way). Built as
// dist/ui-reader.cjs; it does its work only when started as a worker.
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { StoreUnavailableError } from "../../interpreter/index";
import { createFlowHost, type FlowHost } from "../flow-host";
import type { ReaderAnswer, ReaderRequest, ReaderWorkerData } from "./flow-reader";
import { FlowSource } from "./flow-source";
import { resolvePageGate } from "./page-gate";

function serve(data: ReaderWorkerData): void {
  const port = parentPort;
  if (port === null) return;
  const flowHost = createFlowHost({
    cwd: data.cwd,
    env: data.env,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    readStdin: async () => new Uint8Array(),
  });
  const source = new FlowSource(flowHost);
  port.on("message", (request: ReaderRequest) => {
    void answer(source, flowHost, request).then((message) => port.postMessage(message));
  });
}

async function answer(source: FlowSource, flowHost: FlowHost, request: ReaderRequest): Promise<ReaderAnswer> {
  try {
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
