// The host's agent runner for server-side parallel dispatch (docs/reference/runtime.md §23.6, docs/reference/runtime.md §23.10): for
// one task, create its worktree (isolation "worktree"), run the agent process there, capture the
// diff if asked, and remove the worktree whatever happened. Implements the engine's
// ParallelAgentRunner; never rejects.
import { homedir } from "node:os";
import { join } from "node:path";
import type { ParallelAgentRunner, ParallelTaskOutcome, ParallelTaskRequest } from "../../interpreter";
import { fromJsonValue } from "../../stdlib";
import { stratumHome } from "../file-store/stratum-home";
import { type AgentRunnerOptions, runAgentTask } from "./agent-runner";
import {
  captureWorktreeDiff,
  createWorktree,
  DEFAULT_WORKTREE_TIMINGS,
  removeWorktree,
  type WorktreeTimings,
} from "./worktree";

export interface ProcessParallelRunnerOptions extends AgentRunnerOptions {
  /** Where worktrees go (default `$STRATUM_HOME/worktrees`, from `env`). */
  readonly worktreeRoot?: string;
  readonly worktreeTimings?: WorktreeTimings;
  /** Bound on a captured diff in bytes (default 16 MiB). */
  readonly maxDiffBytes?: number;
}

export function worktreeRootFor(env: Readonly<Record<string, string | undefined>>): string {
  return join(stratumHome(env, homedir()), "worktrees");
}

export function createProcessParallelRunner(options: ProcessParallelRunnerOptions = {}): ParallelAgentRunner {
  const root = options.worktreeRoot ?? worktreeRootFor(options.env ?? process.env);
  return { runTask: (request, signal) => runTask(request, signal, root, options) };
}

async function runTask(
  request: ParallelTaskRequest,
  signal: AbortSignal,
  root: string,
  options: ProcessParallelRunnerOptions,
): Promise<ParallelTaskOutcome> {
  const timings = options.worktreeTimings ?? DEFAULT_WORKTREE_TIMINGS;
  let worktree: string | null = null;
  if (request.isolation === "worktree") {
    try {
      worktree = await createWorktree(root, request.flowId, request.taskId, request.cwd, signal, timings);
    } catch (e) {
      return { ok: false, error: `worktree setup failed: ${messageOf(e)}`, worktreePath: null };
    }
  }
  try {
    const run = await runAgentTask({ ...request, cwd: worktree ?? request.cwd }, signal, options);
    let diff: string | null = null;
    let diffError: string | null = null;
    if (worktree !== null && request.captureDiff) {
      // The diff is captured whatever ended the task, a timeout or a cancellation included (as the
      // reference does); only an interruption that arrives during the capture stops it.
      const capture = await captureWorktreeDiff(worktree, {
        signal: signal.aborted ? undefined : signal,
        maxBytes: options.maxDiffBytes,
        timings,
      });
      diff = capture.diff;
      diffError = capture.diffError;
    }
    const common = { tokens: run.tokens, worktreePath: worktree, diff, diffError };
    return run.ok
      ? { ok: true, result: fromJsonValue(run.result), ...common }
      : { ok: false, error: run.error, ...common };
  } catch (e) {
    return { ok: false, error: messageOf(e), worktreePath: worktree };
  } finally {
    if (worktree !== null) await removeWorktree(request.cwd, worktree, timings);
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
