// The agent runner of server-side parallel dispatch (stratum_parallel_start): the one thing the
// core cannot do itself is run an agent on a task. A host injects a ParallelAgentRunner into the
// engine (EngineOptions.parallelRunner); without one, stratum_parallel_start answers
// `server_dispatch_unavailable` (a documented divergence: the reference spawns Claude Agent SDK
// sessions or `codex exec` itself). The executor that schedules tasks over a runner (bounded by
// `max_concurrent`, `depends_on` order, `require` cascade cancel) calls `runTask` once per task.
import type { PyValue } from "../../stdlib/values/value";

/** One task to run. */
export interface ParallelTaskRequest {
  readonly flowId: string;
  readonly stepId: string;
  readonly taskId: string;
  /** The task object as the step's `source` resolved it. */
  readonly task: PyValue;
  /** The rendered `intent_template` (intent-template.ts). */
  readonly prompt: string;
  /** The step's `agent` as written (null: the host's default agent). */
  readonly agent: string | null;
  /** The flow's working directory; with isolation "worktree" the runner works in a worktree of it. */
  readonly cwd: string;
  readonly isolation: "worktree" | "none";
  /** Capture the worktree's diff after the task (only with isolation "worktree"). */
  readonly captureDiff: boolean;
  /**
   * `task_timeout` in seconds: the runner is aborted when it passes (the executor's clock), and
   * each `pre_merge_verify` command has as long again.
   */
  readonly timeoutSeconds: number;
  /** The step's `pre_merge_verify` (isolation "worktree" and at least one command), else absent. */
  readonly gate?: PreMergeGate;
}

/**
 * The commands a completed task's worktree must pass, in order, before its diff is captured: each
 * split into words as Python's shlex.split does, run without a shell in the worktree with the
 * agent's environment, `timeoutSeconds` each.
 */
export interface PreMergeGate {
  readonly commands: readonly string[];
  /**
   * Called once when the agent has succeeded, before the commands run: false when the result
   * fails the executor's own checks (its size, the task certificate), and the gate is then not
   * run. The task's own time limit ends here.
   */
  accepts(result: PyValue): boolean;
}

/** The first command that failed: exit code null when it timed out. */
export interface GateBounce {
  readonly command: string;
  readonly exitCode: number | null;
  /** The worktree's changed files (tracked and untracked), as far as git could tell. */
  readonly files: readonly string[];
  /** The last 2,048 characters of its output (stdout, a newline, stderr), or why it did not run. */
  readonly excerpt: string;
}

/** What a runner reports for one task. `tokens` and `dollars` default to 0. */
export type ParallelTaskOutcome =
  | {
      readonly ok: true;
      /** The agent's final answer (a string or, when the runner parsed one, a JSON object). */
      readonly result: PyValue;
      readonly tokens?: number;
      readonly dollars?: number;
      readonly worktreePath?: string | null;
      readonly diff?: string | null;
      readonly diffError?: string | null;
      /** Set when a `pre_merge_verify` command failed (no diff is captured then). */
      readonly gateBounce?: GateBounce | null;
    }
  | {
      readonly ok: false;
      /** Why the task failed (becomes the task entry's `error`). */
      readonly error: string;
      readonly tokens?: number;
      readonly dollars?: number;
      readonly worktreePath?: string | null;
      readonly diff?: string | null;
      readonly diffError?: string | null;
    };

export interface ParallelAgentRunner {
  /**
   * Runs one task to its end. `signal` aborts it (a timeout, a sibling's failure under
   * `require`, shutdown): the runner must stop the agent and settle promptly, with any outcome
   * (the executor records the task as cancelled or timed out, whatever the runner answers).
   * The promise must not reject; a rejection is recorded as a failed task with its message.
   */
  runTask(request: ParallelTaskRequest, signal: AbortSignal): Promise<ParallelTaskOutcome>;
}
