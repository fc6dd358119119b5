// Serving MCP over stdio (docs/reference/runtime.md §16.1, docs/reference/runtime.md §21.1): standard output carries protocol only, so
// anything else that would print there (console.log/info/debug) goes to standard error.
import type { AgentRuns, GateSetting } from "../host/index";
import type { StratumApi } from "../interpreter/index";
import type { CallEvents } from "./call-events";
import { CheckJobs } from "./check-jobs";
import type { ClientLog } from "./client-log";
import { FuzzJobs } from "./fuzz-jobs";
import { type ByteInput, type ByteOutput, LineTransport } from "./line-transport";
import type { SkillText } from "./prompts";
import type { ResourceOptions } from "./resources/register";
import { createMcpServer, screenRequest } from "./server";
import { ANSWER_WAIT_MS, CANCEL_WAIT_MS } from "./stop-waits";

export interface ServeOptions {
  readonly api: StratumApi;
  readonly version: string;
  readonly input: ByteInput;
  readonly output: ByteOutput;
  /** Where stray console output goes (never the protocol stream). */
  readonly log: (text: string) => void;
  /** Ends the session early (SIGTERM): the server closes as if the input had ended. */
  readonly stop?: AbortSignal;
  /** Hands each call's events to the clients that ask for them (call-events.ts). */
  readonly events?: CallEvents;
  /** Where `stratum_fuzz` jobs run; `stop` terminates them (default: jobs of the server's own). */
  readonly fuzz?: FuzzJobs;
  /** Where the checks of big specs run; `stop` terminates them (default: the server's own). */
  readonly checks?: CheckJobs;
  /** The agent runs of stratum_agent_run (default: none); `stop` cancels them. */
  readonly agents?: AgentRuns;
  /** STRATUM_GATES and the wait of stratum_gate_ask (default: any gate resolver, ten minutes). */
  readonly gates?: GateSetting;
  /** The flows and the spec schema as resources (default: none). */
  readonly resources?: ResourceOptions;
  /** The bundled skills as prompts (default: none). */
  readonly prompts?: readonly SkillText[];
  /** The server's log, also sent to the client as notifications/message (client-log.ts). */
  readonly clientLog?: ClientLog;
}

/** Serves until the input ends (or `stop` fires); resolves then. */
export async function serveMcp(options: ServeOptions): Promise<void> {
  const toLog = (...parts: unknown[]) => options.log(`${parts.map(String).join(" ")}\n`);
  console.log = toLog;
  console.info = toLog;
  console.debug = toLog;
  const transport = new LineTransport(options.input, options.output, screenRequest);
  const fuzz = options.fuzz ?? new FuzzJobs();
  const checks = options.checks ?? new CheckJobs();
  const server = createMcpServer({
    api: options.api,
    version: options.version,
    toolArguments: (request) => transport.toolArguments(request),
    ...(options.events === undefined ? {} : { events: options.events }),
    fuzz,
    checks,
    ...(options.agents === undefined ? {} : { agents: options.agents }),
    ...(options.gates === undefined ? {} : { gates: options.gates }),
    ...(options.resources === undefined ? {} : { resources: options.resources }),
    ...(options.prompts === undefined ? {} : { prompts: options.prompts }),
    ...(options.clientLog === undefined ? {} : { log: options.clientLog }),
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  // A signal stops the running jobs at once (their workers would otherwise run out their
  // deadlines) and the server closes once their calls have answered that they were stopped; a
  // request nothing could stop is answered as cancelled. Over stdio the client owns the process:
  // a signal usually means it is going away, so no grace period is given (unlike over HTTP).
  const close = (): void => {
    transport.refuseNew();
    fuzz.shutdown();
    checks.shutdown();
    const agentsStopped = options.agents?.shutdown() ?? Promise.resolve();
    void Promise.race([
      transport.whenAnswered(CANCEL_WAIT_MS),
      agentsStopped.then(() => transport.whenAnswered(ANSWER_WAIT_MS)),
    ])
      .then((answered) => {
        if (!answered) {
          transport.answerUnanswered(
            -32000,
            "Cancelled: the server is stopping and this request had not finished",
          );
        }
        return server.close();
      })
      .catch(() => undefined);
  };
  if (options.stop?.aborted) close();
  else options.stop?.addEventListener("abort", close, { once: true });
  await closed;
  options.stop?.removeEventListener("abort", close);
}
