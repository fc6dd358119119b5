// The MCP server process (docs/reference/runtime.md §16, docs/reference/runtime.md §21): the Node host over the
// store the environment names (host/compose.ts), serving the tools on this process's standard
// streams, with the process's V8 flags, its signals and its shutdown. This module is its own
// bundle (dist/mcp.cjs, see scripts/build.mjs; `stratumc serve` and bare `stratum-mcp` load it
// through cli/serve/load-server.ts): only plain data crosses into it, so the engine and the values
// it handles all come from one copy of the code.
import { setFlagsFromString } from "node:v8";
import {
  agentEnvSetting,
  composeHostLazily,
  createJudgeVerifier,
  gateSettingOf,
  type HostOptions,
  type NodeHost,
  SHUTDOWN_WAIT_MS,
} from "../host/index";
import { StorePermissionError, StoreUnavailableError } from "../interpreter/index";
import { CallEvents } from "./call-events";
import { ClientLog } from "./client-log";
import { httpServerSetup, serveHttp } from "./http/index";
import { secretsOf } from "./log-secrets";
import type { SkillText } from "./prompts";
import { serveMcp } from "./serve";

interface McpProcessOptions {
  /** Where the server runs and its environment (the store, tracing, parallel dispatch). */
  readonly host: Pick<HostOptions, "cwd" | "env">;
  /** `stratumc` or `stratum-mcp`: the prefix of each line of the server's log. */
  readonly programName: string;
  /** The product version the server and its traces report. */
  readonly version: string;
  /** The server's log (standard error): whole lines with their newline. */
  readonly log: (text: string) => void;
  /** The spec format's JSON Schema as `stratumc schema` prints it, served as a resource. */
  readonly specSchema: string;
  /** The bundled skills, served as prompts. */
  readonly skills: readonly SkillText[];
  /** `HOST:PORT`: serve over Streamable HTTP there (mcp/http/) instead of on the standard streams. */
  readonly http?: string | undefined;
}

export async function serveStdio({
  host,
  programName,
  version,
  log,
  specSchema,
  skills,
  http,
}: McpProcessOptions): Promise<void> {
  // Checked before anything starts: a wrong address or setting is one line and no server.
  const overHttp = http === undefined ? null : httpServerSetup(http, host.env);
  // A server lives for weeks and allocates at a steady rate: V8 would otherwise double its young
  // generation to 32 MB of mostly garbage after the first calls. At the initial size the live heap
  // and RSS stay flat ("The MCP server's memory" in the history of docs/performance.md).
  setFlagsFromString("--semi-space-growth-factor=1");
  // And the old generation may grow to 1.5× its live size before a full GC, not V8's up to 4×:
  // otherwise ~60 MB of promoted garbage piles up between collections (RSS saw-tooth 115–190 MB).
  setFlagsFromString("--heap-growing-percent=50");
  // STRATUM_GATES guards what gates mean: a value not understood stops the server before it serves
  // (the command line checks it first and says so as a usage error).
  const gates = gateSettingOf(host.env);
  if (!gates.ok) throw new Error(gates.message);
  // Each line goes to standard error and, at its level, to the client (notifications/message).
  const clientLog = new ClientLog({ stderr: log, programName, secrets: secretsOf(host.env) });
  const flows = await composeHostLazily({
    cwd: host.cwd,
    env: host.env,
    logError: (details) => clientLog.error(details),
    logWarning: (details) => clientLog.warn(details),
  });
  // The store is opened beside serving, never before it: tools/list, stratum_validate and
  // stratum_fuzz need no store, and a database that does not answer would hold them for its
  // connect timeout. The calls that need the store wait for the same opening, within its bounds.
  const storeFailed = new AbortController();
  const failure: { error: unknown } = { error: null };
  const opening = openStore(flows, clientLog).catch((e: unknown) => {
    failure.error = e;
    storeFailed.abort();
  });
  // Entries of STRATUM_AGENT_ENV that are not passed to agents, said once rather than per task.
  for (const warning of agentEnvSetting(host.env).warnings) clientLog.warn(warning);
  // OTLP traces when the OTEL_* variables ask for them (docs/guides/tracing.md); otherwise nothing changes.
  const tracer = flows.tracer(version, (line) => clientLog.warn(line));
  // Each call's events go to the tracer, and to the client when its request asks for them
  // (`_meta`, mcp/call-events.ts); a call nobody observes builds none.
  const events = new CallEvents();
  const traced = tracer?.observer;
  // One runner for stratum_agent_run and the judge's verifier: STRATUM_MAX_AGENTS counts both.
  const agents = flows.agentRuns();
  const api = flows.api(
    (batch) => {
      traced?.(batch);
      events.observer(batch);
    },
    {
      followStoreChanges: true,
      serverDispatch: true,
      observing: () => traced !== undefined || events.active(),
      judgeVerifier: createJudgeVerifier(agents),
    },
  );
  const stopped = stopOnSignals();
  const stop = AbortSignal.any([stopped.signal, storeFailed.signal]);
  // What every session's server shares, over either transport.
  const shared = { gates: gates.setting, resources: { flows, specSchema }, prompts: skills };
  if (overHttp === null) {
    await serveMcp({
      api,
      agents,
      version,
      input: process.stdin,
      output: process.stdout,
      log,
      stop,
      events,
      ...shared,
      clientLog,
    });
  } else {
    await serveHttp({
      api,
      agents,
      version,
      ...overHttp,
      programName,
      log,
      stop,
      events,
      session: { ...shared, log: clientLog },
    });
  }
  await opening;
  // The input ended (or a signal came) and every call was answered: running parallel agents are
  // stopped and their tasks recorded as failed (docs/reference/runtime.md §23.11), the agents of
  // stratum_agent_run stopped (their calls answered agent_cancelled), then the spans still
  // queued are sent, each within a bound.
  await api.parallelShutdown();
  await agents.shutdown();
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
async function openStore(flows: NodeHost, log: ClientLog): Promise<void> {
  try {
    await flows.open();
  } catch (e) {
    if (!(e instanceof StoreUnavailableError || e instanceof StorePermissionError)) throw e;
    log.error(e.message);
  }
}
