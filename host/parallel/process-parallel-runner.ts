// The host's agent runner for server-side parallel dispatch (docs/reference/runtime.md §23.6, docs/reference/runtime.md §23.10): for
// one task, create its worktree (isolation "worktree"), run the agent process there, run the
// step's `pre_merge_verify` commands there when the agent succeeded and the executor accepts its
// result (pre-merge-gate.ts), capture the diff if asked (not after a failed gate: that work must
// not be merged), and remove the worktree whatever happened. Implements the engine's
// ParallelAgentRunner; never rejects.
import { homedir } from "node:os";
import { join } from "node:path";
import type {
  GateBounce,
  ParallelAgentRunner,
  ParallelTaskOutcome,
  ParallelTaskRequest,
} from "../../interpreter";
import { fromJsonValue } from "../../stdlib";
import { stratumHome } from "../file-store/stratum-home";
import { taskEnvironment } from "./agent-env";
import { type AgentRunnerOptions, runAgentTask } from "./agent-runner";
import { runPreMergeGate } from "./pre-merge-gate";
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
    const result = run.ok ? fromJsonValue(run.result) : null;
    let gateBounce: GateBounce | null = null;
    const gate = request.gate;
    if (run.ok && worktree !== null && gate?.accepts(result)) {
      const verdict = await runPreMergeGate(
        {
          worktree,
          baseCwd: request.cwd,
          commands: gate.commands,
          timeoutSeconds: request.timeoutSeconds,
          env: taskEnvironment(options.env ?? process.env, request),
          ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
        },
        signal,
      );
      gateBounce = verdict === "aborted" ? null : verdict;
    }
    let diff: string | null = null;
    let diffError: string | null = null;
    if (worktree !== null && request.captureDiff && gateBounce === null) {
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
    return run.ok ? { ok: true, result, gateBounce, ...common } : { ok: false, error: run.error, ...common };
  } catch (e) {
    return { ok: false, error: messageOf(e), worktreePath: worktree };
  } finally {
    if (worktree !== null) await removeWorktree(request.cwd, worktree, timings);
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
