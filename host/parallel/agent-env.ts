// The environment of an agent process (docs/reference/runtime.md §23.6): an allow-list, not the server's
// environment minus a few names. A server holds secrets an agent must never see — the store's URL
// with its password, the page's token, the trace exporter's headers, cloud and registry tokens —
// and an agent that can read `STRATUM_STORE` can approve its own flow's gates. So an agent gets
// only what a program needs to run (PATH, HOME, locale, terminal, temp directory), the ids of its
// task, its own CLI's login (agent-command.ts), and the names the operator lists in
// `STRATUM_AGENT_ENV`; the names that open the store, the page or the traces never, even listed.

/** What any program needs to run: where programs and the home are, who it is, locale, terminal, temp. */
export const BASE_ENV_NAMES: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TERM",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  // Where programs keep their configuration and caches (an agent CLI's login may live there).
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
];

/** Every `LC_*` locale category. */
const BASE_ENV_PREFIXES: readonly string[] = ["LC_"];

/**
 * Never passed, whatever `STRATUM_AGENT_ENV` says: each opens the flow store (the URL or the
 * directory, the PostgreSQL connection variables), the approval page (`STRATUMC_*`), or the trace
 * collector (its endpoint and headers). Exact names, then prefixes.
 */
const PROTECTED_ENV_NAMES: readonly string[] = ["STRATUM_STORE", "STRATUM_HOME"];
const PROTECTED_ENV_PREFIXES: readonly string[] = ["STRATUMC_", "PG", "OTEL_EXPORTER_OTLP_"];

/** Set by the runner for every task; a server's own values of them are never passed. */
const TASK_ID_NAMES: readonly string[] = ["STRATUM_FLOW_ID", "STRATUM_STEP_ID", "STRATUM_TASK_ID"];

export interface TaskIds {
  readonly flowId: string;
  readonly stepId: string;
  readonly taskId: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The operator's additions: exact names and `PREFIX*` patterns. */
export interface AgentEnvSetting {
  readonly names: readonly string[];
  readonly prefixes: readonly string[];
  /** One line per entry that was ignored, and why (printed by the server at start). */
  readonly warnings: readonly string[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isProtectedEnvName(name: string): boolean {
  return PROTECTED_ENV_NAMES.includes(name) || PROTECTED_ENV_PREFIXES.some((p) => name.startsWith(p));
}

/**
 * Reads `STRATUM_AGENT_ENV`: names separated by commas (spaces allowed), each an environment
 * variable name, or a name prefix followed by `*` (`MYTOOL_*`). A bare `*`, anything else that is
 * not a name, and a protected name or pattern are ignored, each with a warning.
 */
export function agentEnvSetting(env: Env): AgentEnvSetting {
  const names: string[] = [];
  const prefixes: string[] = [];
  const warnings: string[] = [];
  for (const raw of (env.STRATUM_AGENT_ENV ?? "").split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const prefix = entry.endsWith("*") ? entry.slice(0, -1) : null;
    const name = prefix ?? entry;
    if (!NAME.test(name)) {
      warnings.push(
        `STRATUM_AGENT_ENV: '${entry}' is ignored: expected a variable name or a name prefix followed by '*'`,
      );
    } else if (prefix === null && isProtectedEnvName(name)) {
      warnings.push(
        `STRATUM_AGENT_ENV: ${name} is never passed to agents (it opens the flow store, the approval page or the traces)`,
      );
    } else if (prefix !== null && isProtectedEnvName(prefix)) {
      warnings.push(
        `STRATUM_AGENT_ENV: ${entry} is ignored: its names open the flow store, the approval page or the traces`,
      );
    } else if (prefix !== null) prefixes.push(prefix);
    else names.push(name);
  }
  return { names, prefixes, warnings };
}

/**
 * The task's environment: the allowed names the server has, the `STRATUM_AGENT_ENV` additions, and
 * the task ids; never a protected name. The agent command adds its own login (agent-command.ts).
 */
export function taskEnvironment(base: Env, ids: TaskIds): Record<string, string> {
  const setting = agentEnvSetting(base);
  const names = new Set([...BASE_ENV_NAMES, ...setting.names]);
  const prefixes = [...BASE_ENV_PREFIXES, ...setting.prefixes];
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || isProtectedEnvName(key) || TASK_ID_NAMES.includes(key)) continue;
    if (names.has(key) || prefixes.some((p) => key.startsWith(p))) env[key] = value;
  }
  env.STRATUM_FLOW_ID = ids.flowId;
  env.STRATUM_STEP_ID = ids.stepId;
  env.STRATUM_TASK_ID = ids.taskId;
  return env;
}

/** The values of `names` the server has, protected names excepted (an agent CLI's own login). */
export function pickEnv(base: Env, names: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = base[name];
    if (value !== undefined && !isProtectedEnvName(name)) env[name] = value;
  }
  return env;
}
