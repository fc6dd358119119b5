// `stratumc flows prune` (docs/reference/runtime.md §21.2): which kept flows may be deleted, and the age option.
// Pure; the command (cli/flows/) lists the flows, asks here, and deletes.

import type { PersistedStatus } from "../base/flow-state";
import { isFinished } from "../flow/current";
import type { FlowRun } from "../flow/run";
import { persistedStatus } from "../flow/status";

export const DEFAULT_PRUNE_AGE = "7";

const UNIT_MS: ReadonlyMap<string, number> = new Map([
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1000],
]);

/**
 * `--older-than`: a bare number is days (docs/reference/runtime.md §21.2: DAYS); the DURATION form `<n>d`, `<n>h`,
 * `<n>m` or `<n>s` is accepted too. Decimals are allowed (`1.5d`). Null for anything else.
 */
export function parsePruneAge(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([dhms]?)$/.exec(text.trim());
  if (m === null) return null;
  const ms = Number(m[1]) * (UNIT_MS.get(m[2] || "d") ?? 0);
  return Number.isFinite(ms) ? ms : null;
}

export interface PruneOptions {
  /** Minimum age in ms; 0 means every flow regardless of age. */
  readonly olderThanMs: number;
  readonly includeExhausted: boolean;
  readonly nowMs: number;
}

/**
 * The status under which a flow is pruned, or null when it is kept: only `complete`, `killed` and
 * `budget_exhausted` (plus `exhausted` with --include-exhausted) flows last modified more than the
 * age ago. A killed
 * flow still running the cleanup steps of a named `on_kill` (its status is `killed` although it is
 * not finished, docs/reference/runtime.md §6.1) is in progress and kept.
 */
export function pruneStatus(run: FlowRun, modifiedMs: number, options: PruneOptions): PersistedStatus | null {
  const status = persistedStatus(run);
  const eligible =
    status === "complete" ||
    status === "budget_exhausted" ||
    (status === "killed" && isFinished(run)) ||
    (status === "exhausted" && options.includeExhausted);
  if (!eligible) return null;
  if (options.olderThanMs > 0 && options.nowMs - modifiedMs <= options.olderThanMs) return null;
  return status;
}
