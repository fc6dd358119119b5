// The MCP server process: the Node engine over the file store at STRATUM_HOME, serving the tools
// on this process's standard streams. This module is its own bundle (dist/mcp.cjs, see
// scripts/build.mjs and load-server.ts): only plain data (the CLI host) crosses into it, so the
// engine and the values it handles all come from one copy of the code.
import { setFlagsFromString } from "node:v8";
import { agentEnvSetting, createTracer, SHUTDOWN_WAIT_MS } from "../../host/index";
import { StorePermissionError, StoreUnavailableError } from "../../interpreter/index";
import { CallEvents, serveMcp } from "../../mcp/index";
import { createFlowHost, type FlowHost } from "../flow-host";
import type { CliHost } from "../host";
import { VERSION } from "../version";

export async function serveStdio(
  host: CliHost,
  programName: string,
  log: (text: string) => void,
): Promise<void> {
  // A server lives for weeks and allocates at a steady rate: V8 would otherwise double its young
  // generation to 32 MB of mostly garbage after the first calls. At the initial size the live heap
  // and RSS stay flat ("The MCP server's memory" in the history of docs/performance.md).
  setFlagsFromString("--semi-space-growth-factor=1");
  // And the old generation may grow to 1.5× its live size before a full GC, not V8's up to 4×:
  // otherwise ~60 MB of promoted garbage piles up between collections (RSS saw-tooth 115–190 MB).
  setFlagsFromString("--heap-growing-percent=50");
  const flows = createFlowHost(host, (details) => log(`${programName}: ${details}\n`));
  // The store is opened beside serving, never before it: tools/list, stratum_validate and
  // stratum_fuzz need no store, and a database that does not answer would hold them for its
  // connect timeout. The calls that need the store wait for the same opening, within its bounds.
  const storeFailed = new AbortController();
  const failure: { error: unknown } = { error: null };
  const opening = openStore(flows, programName, log).catch((e: unknown) => {
    failure.error = e;
    storeFailed.abort();
  });
  // Entries of STRATUM_AGENT_ENV that are not passed to agents, said once rather than per task.
  for (const warning of agentEnvSetting(host.env).warnings) log(`${programName}: ${warning}\n`);
  // OTLP traces when the OTEL_* variables ask for them (docs/guides/tracing.md); otherwise nothing changes.
  const tracer = createTracer({
    env: host.env,
    version: VERSION,
    warn: (line) => log(`${programName}: ${line}\n`),
  });
  // Each call's events go to the tracer, and to the client when its request asks for them
  // (`_meta`, mcp/call-events.ts); a call nobody observes builds none.
  const events = new CallEvents();
  const traced = tracer?.observer;
  const api = flows.api(
    (batch) => {
      traced?.(batch);
      events.observer(batch);
    },
    {
      followStoreChanges: true,
      serverDispatch: true,
      observing: () => traced !== undefined || events.active(),
    },
  );
  const stopped = stopOnSignals();
  await serveMcp({
    api,
    version: VERSION,
    input: process.stdin,
    output: process.stdout,
    log,
    stop: AbortSignal.any([stopped.signal, storeFailed.signal]),
    events,
  });
  await opening;
  // The input ended (or a signal came) and every call was answered: running parallel agents are
  // stopped and their tasks recorded as failed (docs/reference/runtime.md §23.11), then the spans still
  // queued are sent, each within a bound.
  await api.parallelShutdown();
  await tracer?.shutdown(SHUTDOWN_WAIT_MS);
  await flows.close();
  stopped.dispose();
  // A store this program must not use (a schema newer than it): the server stops with its line.
  if (failure.error !== null) throw failure.error;
  // Ended by a signal: the input may still be open, so the process ends as the signal would have.
  if (stopped.by !== null) process.kill(process.pid, stopped.by);
}

/** SIGTERM and SIGINT end the session cleanly instead of killing the process at once. */
function stopOnSignals(): {
  readonly signal: AbortSignal;
  readonly by: NodeJS.Signals | null;
  dispose(): void;
} {
  const controller = new AbortController();
  const state: { by: NodeJS.Signals | null } = { by: null };
  const on = (sig: NodeJS.Signals) => () => {
    state.by ??= sig;
    controller.abort();
  };
  const term = on("SIGTERM");
  const int = on("SIGINT");
  process.on("SIGTERM", term);
  process.on("SIGINT", int);
  return {
    signal: controller.signal,
    get by() {
      return state.by;
    },
    dispose() {
      process.off("SIGTERM", term);
      process.off("SIGINT", int);
    },
  };
}

/**
 * A database store is connected at start, so its problems show in the server's log at once. A
 * schema newer than this program stops the server (it would misread the flows); a database that
 * cannot be reached, or that this server's role may not set up, does not: the calls that need
 * the store answer `store_unavailable` / `store_unusable` until it is back or an owner has acted.
 */
async function openStore(flows: FlowHost, programName: string, log: (text: string) => void): Promise<void> {
  try {
    await flows.open();
  } catch (e) {
    if (!(e instanceof StoreUnavailableError || e instanceof StorePermissionError)) throw e;
    log(`${programName}: ${e.message}\n`);
  }
}
