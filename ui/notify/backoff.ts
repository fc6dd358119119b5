// When a webhook delivery is tried again (docs/guides/ui-notify.md): exponential backoff with
// jitter, so many servers that lost the same receiver do not all call it back at the same moment,
// and a receiver's own Retry-After, which is obeyed but capped so that one answer cannot park a
// notification for hours.

export interface BackoffPolicy {
  /** The first wait's ceiling (ms); each later one doubles it. */
  readonly baseMs: number;
  /** No wait is longer than this (ms), Retry-After included. */
  readonly capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 30_000 };

/** The ceiling of the wait before retry `retry` (0: the first retry): base · 2^retry, at most the cap. */
export function backoffCeiling(policy: BackoffPolicy, retry: number): number {
  // 2^retry overflows to Infinity for a large retry; min() keeps the cap.
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, retry));
}

/**
 * The wait before retry `retry`: between half the ceiling and the ceiling ("equal jitter"), so it
 * never falls to nothing while the waits still spread. `random` is in [0, 1).
 */
export function backoffDelay(policy: BackoffPolicy, retry: number, random: number): number {
  const ceiling = backoffCeiling(policy, retry);
  return Math.round(ceiling / 2 + (ceiling / 2) * Math.min(Math.max(random, 0), 1));
}

/**
 * A Retry-After header as a wait in ms (delay-seconds or an HTTP date), capped; null when absent
 * or unreadable, so the backoff decides.
 */
export function retryAfterMs(header: string | null, policy: BackoffPolicy, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  let ms: number;
  if (/^\d{1,10}$/.test(text)) ms = Number(text) * 1_000;
  else {
    // Only an HTTP date (RFC 9110 IMF-fixdate): Date.parse reads "-3" as a year.
    if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return null;
    const at = Date.parse(text);
    if (!Number.isFinite(at)) return null;
    ms = at - now;
  }
  return Math.min(policy.capMs, Math.max(0, ms));
}
