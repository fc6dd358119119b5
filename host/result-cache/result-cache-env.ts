// The result cache a program gets from its environment (docs/reference/runtime.md §25.4):
// none when STRATUM_DISABLE_RESULT_CACHE is set to anything but "", "0", "false" or "no" (as the
// reference reads it), else the files under `<home>/cache/results` with the age and count limits
// of STRATUM_CACHE_MAX_AGE_DAYS (default 30) and STRATUM_CACHE_MAX_ENTRIES (default 2000).
import { join } from "node:path";
import { DEFAULT_RESULT_CACHE_LIMITS, FileResultCache } from "./file-result-cache";

export function resultCacheFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): FileResultCache | null {
  const disable = (env.STRATUM_DISABLE_RESULT_CACHE ?? "").trim().toLowerCase();
  if (!["", "0", "false", "no"].includes(disable)) return null;
  return new FileResultCache(join(home, "cache", "results"), {
    ...DEFAULT_RESULT_CACHE_LIMITS,
    maxAgeDays: positiveInteger(env.STRATUM_CACHE_MAX_AGE_DAYS) ?? DEFAULT_RESULT_CACHE_LIMITS.maxAgeDays,
    maxEntries: positiveInteger(env.STRATUM_CACHE_MAX_ENTRIES) ?? DEFAULT_RESULT_CACHE_LIMITS.maxEntries,
  });
}

/** A whole number ≥ 0 written in decimal; anything else falls back to the default. */
function positiveInteger(text: string | undefined): number | null {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text.trim());
  return Number.isSafeInteger(n) ? n : null;
}
