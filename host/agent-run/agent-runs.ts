// The agent runs of `stratum_agent_run` and `stratum_cancel_agent_run`
// (docs/reference/runtime.md §16.6): each call runs one agent process (agent-run-command.ts) through the runner of
// server-side parallel dispatch (host/parallel/agent-process.ts: its own process group, no shell,
// bounded output, a time limit, SIGTERM then SIGKILL to the whole group), with the scrubbed
// environment of an agent task (host/parallel/agent-env.ts), in a working directory inside the
// workspace root. Runs are awaited, never waited for on the event loop, so the server answers
// other calls meanwhile; a run is known by its correlation id until it ends, which is what
// cancelling finds. A run whose correlation id names a flow with a run budget is checked against
// it before it starts and charged when it ends, whatever ended it (the engine's budget calls,
// given with the request). Never throws: every failure is an answer.
import { randomUUID } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { grouped, type Response, toolError } from "../../interpreter";
import type { PyValue } from "../../stdlib";
import { taskEnvironment } from "../parallel/agent-env";
import { DEFAULT_PROCESS_LIMITS, type ProcessEnding, runProcess } from "../parallel/agent-process";
import { type AgentRunOptions, agentRunCommand } from "./agent-run-command";
import { extractJsonResult } from "./json-result";

/** One `stratum_agent_run` call, its arguments decoded. */
interface AgentRunRequest {
  readonly prompt: string;
  readonly type: string;
  readonly context: string | null;
  /** Present: the answer carries the text's JSON value as `result` (or `parseError`). */
  readonly schema: PyValue | null;
  readonly model: string | null;
  readonly allowedTools: readonly string[] | null;
  readonly disallowedTools: readonly string[] | null;
  readonly effort: string | null;
  readonly cwd: string | null;
  /**
   * A directory the server made for this run itself (the judge's staged evidence): the agent runs
   * there, outside the workspace root. Never taken from a tool's arguments.
   */
  readonly stagedCwd?: string;
  readonly readJail: string | null;
  readonly correlationId: string | null;
  /** The call's own cancellation (the client cancelled the MCP request): stops the run like cancel. */
  readonly signal?: AbortSignal;
  /** The run budget of the flow the correlation id may name (absent: no budget is kept). */
  readonly budget?: AgentRunBudget;
}

/** The engine's side of a run's budget (docs/reference/runtime.md §11.4). */
export interface AgentRunBudget {
  /** Before the run: the answer refusing it (`budget_exhausted`), or null to run. */
  check(correlationId: string): Promise<Response | null>;
  /** After the run, whatever ended it: what it used. */
  charge(correlationId: string, used: { readonly tokens: number; readonly wallS: number }): Promise<void>;
}

export interface AgentRuns {
  run(request: AgentRunRequest): Promise<Response>;
  cancel(correlationId: string): Response;
  /** Stops every running agent (the server is stopping); resolves when their calls have answered. */
  shutdown(): Promise<void>;
}

export interface AgentRunsOptions {
  /** The server's environment: the base of the agents' (scrubbed) and the settings below. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative `cwd` arguments are taken from here; without `cwd` the agent runs here. */
  readonly cwd: string;
  /** Where agents may run: `cwd` arguments outside it are refused (default: `cwd`). */
  readonly workspaceRoot?: string;
  /** Agents at once; a call past that answers `agent_busy`. */
  readonly maxRuns: number;
  /** The time limit of one run (default STRATUM_AGENT_RUN_TIMEOUT seconds, else 1,800). */
  readonly timeoutSeconds?: number;
  readonly killGraceMs?: number;
  readonly maxOutputBytes?: number;
}

const DEFAULT_TIMEOUT_S = 1_800;
const STEP_ID = "_agent_run";

interface Running {
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
}

export function createAgentRuns(options: AgentRunsOptions): AgentRuns {
  const running = new Map<string, Running>();
  const root = realOrSame(options.workspaceRoot ?? options.cwd);
  const timeoutSeconds = options.timeoutSeconds ?? timeoutOf(options.env);

  async function run(request: AgentRunRequest): Promise<Response> {
    const correlationId = request.correlationId ?? randomUUID();
    if (request.readJail !== null) {
      return toolError(
        "invalid_arguments",
        "read_jail: stratumc has no read jail; run the agent without it, or in a sandbox of your own",
      );
    }
    const cwd: Directory =
      request.stagedCwd === undefined
        ? workingDirectory(request.cwd, options.cwd, root)
        : { ok: true, path: request.stagedCwd };
    if (!cwd.ok) return toolError("invalid_arguments", `cwd: ${cwd.problem}`);
    const settings: AgentRunOptions = { ...request, cwd: cwd.path };
    const choice = agentRunCommand(settings, options.env);
    if (!choice.ok) return toolError("invalid_arguments", `${choice.argument}: ${choice.problem}`);
    const refused = (await request.budget?.check(correlationId)) ?? null;
    if (refused !== null) return refused;
    if (running.has(correlationId)) {
      return toolError(
        "agent_run_in_progress",
        `an agent run with correlation_id '${correlationId}' is already running; cancel it or use another id`,
        { correlation_id: correlationId },
      );
    }
    if (running.size >= options.maxRuns) {
      return toolError(
        "agent_busy",
        `${grouped(running.size)} agent runs are running on this server (STRATUM_MAX_AGENTS); call again when one has answered`,
        { correlation_id: correlationId },
      );
    }
    const { command } = choice;
    const controller = new AbortController();
    const prompt =
      request.context !== null && request.context.trim() !== ""
        ? `${request.context}\n\n${request.prompt}`
        : request.prompt;
    const maxStdoutBytes = options.maxOutputBytes ?? DEFAULT_PROCESS_LIMITS.maxStdoutBytes;
    const ending = runProcess(
      {
        program: command.program,
        args: command.args,
        cwd: cwd.path,
        env: {
          ...taskEnvironment(options.env, { flowId: correlationId, stepId: STEP_ID, taskId: correlationId }),
          ...command.env,
        },
        input: prompt,
      },
      {
        timeoutMs: timeoutSeconds * 1000,
        killGraceMs: options.killGraceMs ?? DEFAULT_PROCESS_LIMITS.killGraceMs,
        maxStdoutBytes,
        maxStderrBytes: DEFAULT_PROCESS_LIMITS.maxStderrBytes,
      },
      controller.signal,
    );
    const started = performance.now();
    running.set(correlationId, { controller, done: ending });
    const onCallCancelled = (): void => controller.abort();
    if (request.signal?.aborted === true) controller.abort();
    else request.signal?.addEventListener("abort", onCallCancelled, { once: true });
    let end: ProcessEnding;
    try {
      end = await ending;
    } finally {
      running.delete(correlationId);
      request.signal?.removeEventListener("abort", onCallCancelled);
    }
    // Charged whatever ended the run, as the reference charges in its `finally`.
    const charge = (tokens: number) =>
      request.budget?.charge(correlationId, { tokens, wallS: (performance.now() - started) / 1000 });
    if (end.kind !== "exited") {
      await charge(0);
      const failure = endingFailure(end, command.program, command.notFound, timeoutSeconds, maxStdoutBytes);
      return toolError(failure.errorType, failure.message, { correlation_id: correlationId });
    }
    const read = command.read(end);
    await charge(read.tokens);
    if (!read.ok) {
      return toolError("agent_failed", `stratum_agent_run (${request.type}): ${read.error}`, {
        correlation_id: correlationId,
      });
    }
    if (request.schema === null) return { text: read.text, correlation_id: correlationId };
    const extracted = extractJsonResult(read.text);
    return extracted.ok
      ? { text: read.text, result: extracted.result, correlation_id: correlationId }
      : { text: read.text, result: null, parseError: extracted.parseError, correlation_id: correlationId };
  }

  return {
    run,
    cancel(correlationId) {
      const entry = running.get(correlationId);
      if (entry === undefined) return { status: "not_found", correlation_id: correlationId };
      entry.controller.abort();
      return { status: "cancelled", correlation_id: correlationId };
    },
    async shutdown() {
      const all = [...running.values()];
      for (const entry of all) entry.controller.abort();
      await Promise.allSettled(all.map((entry) => entry.done));
    },
  };
}

function endingFailure(
  ending: Exclude<ProcessEnding, { kind: "exited" }>,
  program: string,
  notFound: string,
  timeoutSeconds: number,
  maxStdoutBytes: number,
): { readonly errorType: string; readonly message: string } {
  switch (ending.kind) {
    case "aborted":
      return {
        errorType: "agent_cancelled",
        message: "the agent run was cancelled (stratum_cancel_agent_run, or the server is stopping)",
      };
    case "timeout":
      return { errorType: "agent_failed", message: `the agent run timed out after ${timeoutSeconds}s` };
    case "too-large":
      return { errorType: "agent_failed", message: `agent output exceeded ${grouped(maxStdoutBytes)} bytes` };
    case "not-started":
      if (ending.code === "ENOENT") return { errorType: "agent_failed", message: notFound };
      if (ending.code === "EACCES") {
        return { errorType: "agent_failed", message: `cannot run '${program}': permission denied` };
      }
      return { errorType: "agent_failed", message: `cannot run '${program}': ${ending.message}` };
  }
}

type Directory =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly problem: string };

/**
 * The agent's working directory: `cwd` resolved against the server's, symbolic links resolved;
 * it must be a directory inside the workspace root (an agent edits where it runs).
 */
function workingDirectory(given: string | null, serverCwd: string, root: string): Directory {
  const wanted = given === null ? serverCwd : resolve(serverCwd, given);
  let real: string;
  try {
    real = realpathSync(wanted);
    if (!statSync(real).isDirectory())
      return { ok: false, problem: `'${given ?? wanted}' is not a directory` };
  } catch {
    return { ok: false, problem: `'${given ?? wanted}' does not exist` };
  }
  const inside = relative(root, real);
  const outside = inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  if (!outside) return { ok: true, path: real };
  return {
    ok: false,
    problem: `'${given ?? wanted}' is outside the workspace root '${root}' (STRATUM_WORKSPACE_ROOT)`,
  };
}

function timeoutOf(env: Readonly<Record<string, string | undefined>>): number {
  const text = env.STRATUM_AGENT_RUN_TIMEOUT?.trim() ?? "";
  const value = Number(text);
  return /^[0-9]+(\.[0-9]+)?$/.test(text) && value > 0 ? value : DEFAULT_TIMEOUT_S;
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
