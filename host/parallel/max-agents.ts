// The server's cap on the agents one parallel step runs at once (docs/reference/runtime.md §23.6): a spec,
// which an agent may write, must not start as many agent processes as it likes. STRATUM_MAX_AGENTS
// sets it; by default it is the number of CPUs the process may use.
import { availableParallelism } from "node:os";

const MAX_AGENTS_VARIABLE = "STRATUM_MAX_AGENTS";

export interface MaxAgents {
  /** At least 1. */
  readonly value: number;
  /** Why the variable was not used (a value that is not a whole number from 1), or null. */
  readonly warning: string | null;
}

/** The cap from the environment: STRATUM_MAX_AGENTS when set and valid, else `cpus`. */
export function maxAgentsOf(
  env: Readonly<Record<string, string | undefined>>,
  cpus: number = availableParallelism(),
): MaxAgents {
  const fallback = Math.max(1, Math.trunc(cpus));
  const written = env[MAX_AGENTS_VARIABLE];
  if (written === undefined || written.trim() === "") return { value: fallback, warning: null };
  const text = written.trim();
  const value = Number(text);
  if (/^[0-9]+$/.test(text) && Number.isSafeInteger(value) && value >= 1) return { value, warning: null };
  return {
    value: fallback,
    warning: `${MAX_AGENTS_VARIABLE}=${JSON.stringify(written)} is not a whole number from 1; at most ${fallback} agents run at once per parallel step (the number of CPUs)`,
  };
}
