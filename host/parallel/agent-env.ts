// The environment of an agent process (the reference's `_task_env`, docs/runtime.md §23.6): the
// server's, without the credentials an agent must not inherit, plus the ids of its task.

/** Never passed to an agent (the reference's SENSITIVE_ENV_VARS). */
export const SENSITIVE_ENV_VARS = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "CLAUDE_API_KEY",
  "CLAUDECODE",
] as const;

export interface TaskIds {
  readonly flowId: string;
  readonly stepId: string;
  readonly taskId: string;
}

export function taskEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  ids: TaskIds,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !(SENSITIVE_ENV_VARS as readonly string[]).includes(key)) env[key] = value;
  }
  env.STRATUM_FLOW_ID = ids.flowId;
  env.STRATUM_STEP_ID = ids.stepId;
  env.STRATUM_TASK_ID = ids.taskId;
  return env;
}
