// Runs one parallel task's agent as a process (docs/reference/runtime.md §23.6): picks the program from the
// step's agent string, gives it the rendered prompt on stdin, the working directory and the task's
// scrubbed environment, bounds it in time and output, and reads its answer. Never throws: every
// failure of the agent is an `{ok: false, error}` with the reference's texts where it has them.
import { grouped } from "../../interpreter";
import { agentCommand } from "./agent-command";
import { type TaskIds, taskEnvironment } from "./agent-env";
import type { JsonValue } from "./agent-output";
import { DEFAULT_PROCESS_LIMITS, type ProcessEnding, runProcess } from "./agent-process";

export interface AgentTaskRequest extends TaskIds {
  /** The rendered `intent_template`. */
  readonly prompt: string;
  /** The step's `agent` as written; null or "" for the default agent. */
  readonly agent: string | null;
  /** Where the agent works: the task's worktree or the flow's directory. */
  readonly cwd: string;
  readonly timeoutSeconds: number;
}

export type AgentRunResult =
  | { readonly ok: true; readonly result: JsonValue; readonly tokens: number; readonly elapsedS: number }
  | { readonly ok: false; readonly error: string; readonly tokens: number; readonly elapsedS: number };

export interface AgentRunnerOptions {
  /** The server's environment, the base of the agent's (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** From SIGTERM to SIGKILL when the agent is stopped (default 5 s). */
  readonly killGraceMs?: number;
  /** stdout beyond this is refused and the task fails (default 16 MiB). */
  readonly maxOutputBytes?: number;
}

export async function runAgentTask(
  request: AgentTaskRequest,
  signal: AbortSignal,
  options: AgentRunnerOptions = {},
): Promise<AgentRunResult> {
  const started = performance.now();
  const elapsedS = (): number => (performance.now() - started) / 1000;
  try {
    const serverEnv = options.env ?? process.env;
    const choice = agentCommand(request.agent, request.cwd, serverEnv);
    if (!choice.ok) return { ok: false, error: choice.error, tokens: 0, elapsedS: elapsedS() };
    const { command } = choice;
    const maxStdoutBytes = options.maxOutputBytes ?? DEFAULT_PROCESS_LIMITS.maxStdoutBytes;
    const ending = await runProcess(
      {
        program: command.program,
        args: command.args,
        cwd: request.cwd,
        env: { ...taskEnvironment(serverEnv, request), ...command.env },
        input: request.prompt,
      },
      {
        timeoutMs: request.timeoutSeconds * 1000,
        killGraceMs: options.killGraceMs ?? DEFAULT_PROCESS_LIMITS.killGraceMs,
        maxStdoutBytes,
        maxStderrBytes: DEFAULT_PROCESS_LIMITS.maxStderrBytes,
      },
      signal,
    );
    if (ending.kind === "exited") return { ...command.read(ending), elapsedS: elapsedS() };
    const error = endingError(
      ending,
      command.program,
      command.notFound,
      request.timeoutSeconds,
      maxStdoutBytes,
    );
    return { ok: false, error, tokens: 0, elapsedS: elapsedS() };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e), tokens: 0, elapsedS: elapsedS() };
  }
}

function endingError(
  ending: Exclude<ProcessEnding, { kind: "exited" }>,
  program: string,
  notFound: string,
  timeoutSeconds: number,
  maxStdoutBytes: number,
): string {
  switch (ending.kind) {
    case "timeout":
      return `timeout after ${timeoutSeconds}s`;
    case "aborted":
      return "cancelled";
    case "too-large":
      return `agent output exceeded ${grouped(maxStdoutBytes)} bytes`;
    case "not-started":
      if (ending.code === "ENOENT") return notFound;
      if (ending.code === "EACCES") return `cannot run '${program}': permission denied`;
      if (ending.code === "ENOTDIR") return ending.message;
      return `cannot run '${program}': ${ending.message}`;
  }
}
