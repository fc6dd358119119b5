// MCP progress (notifications/progress) for the calls that take long: a request whose
// `params._meta.progressToken` is set gets notifications carrying that token, its progress rising
// with each one (the protocol requires it), at most a few a second; a request without one gets none.
// The throttle keeps the first report and the last one before the answer, so a client sees the
// work start and where it ended.

/** One progress report of a call: `progress` of `total` (when known), and a line to show. */
export interface Progress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** Where a tool reports its progress (absent when the client asked for none). */
export interface ProgressReporter {
  /** A new report: sent now, later (throttled), or never (not above the last one sent). */
  report(p: Progress): void;
  /** The call is answered: the last report held back is sent now, and nothing after it. */
  finish(): void;
}

/** At most one notification per this many milliseconds (the first and the last are never held). */
const PROGRESS_INTERVAL_MS = 250;

export type ProgressToken = string | number;

/** The request's progress token, or undefined when it asked for no progress. */
export function progressTokenOf(meta: unknown): ProgressToken | undefined {
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return undefined;
  const token = (meta as Record<string, unknown>).progressToken;
  // The schema's token: a string or an integer.
  if (typeof token === "string" || (typeof token === "number" && Number.isInteger(token))) return token;
  return undefined;
}

/**
 * The throttle's decisions, without timers (progress-reporter below adds them): `offer` says
 * whether a report goes out now, `flush` gives the one held back.
 */
export class ProgressThrottle {
  private lastSent: number | null = null;
  private lastAt = Number.NEGATIVE_INFINITY;
  private held: Progress | null = null;

  constructor(private readonly intervalMs: number) {}

  /** The report to send at `now`, or null (held back, or not above the last one sent). */
  offer(p: Progress, now: number): Progress | null {
    if (!Number.isFinite(p.progress)) return null;
    if (this.lastSent !== null && p.progress <= this.lastSent) return null;
    if (now - this.lastAt >= this.intervalMs) return this.sent(p, now);
    this.held = p;
    return null;
  }

  /** The report held back (sent at `now`), or null. */
  flush(now: number): Progress | null {
    const held = this.held;
    if (held === null) return null;
    return this.sent(held, now);
  }

  /** When the held report may go out (null: none held). */
  heldUntil(): number | null {
    return this.held === null ? null : this.lastAt + this.intervalMs;
  }

  private sent(p: Progress, now: number): Progress {
    this.lastSent = p.progress;
    this.lastAt = now;
    this.held = null;
    return p;
  }
}

export interface ReporterOptions {
  readonly intervalMs?: number;
  readonly now?: () => number;
  /** Stops the reports at once (the call was cancelled). */
  readonly signal?: AbortSignal;
}

/** A reporter sending each report through `send`, throttled; a held report goes out on a timer. */
export function progressReporter(
  send: (p: Progress) => void,
  options: ReporterOptions = {},
): ProgressReporter {
  const now = options.now ?? Date.now;
  const throttle = new ProgressThrottle(options.intervalMs ?? PROGRESS_INTERVAL_MS);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let done = false;
  const emit = (p: Progress | null): void => {
    if (p !== null && !done && options.signal?.aborted !== true) send(p);
  };
  const clear = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const schedule = (): void => {
    const at = throttle.heldUntil();
    if (at === null || timer !== null) return;
    timer = setTimeout(
      () => {
        timer = null;
        emit(throttle.flush(now()));
      },
      Math.max(0, at - now()),
    );
    timer.unref?.();
  };
  options.signal?.addEventListener("abort", clear, { once: true });
  return {
    report(p) {
      if (done) return;
      emit(throttle.offer(p, now()));
      schedule();
    },
    finish() {
      if (done) return;
      clear();
      emit(throttle.flush(now()));
      done = true;
    },
  };
}

/** How often a call with nothing to count says it is still working (stratum_agent_run). */
const HEARTBEAT_MS = 10_000;

/**
 * Runs `work` and, while it runs, reports every `everyMs` that it still does (progress: the count
 * of reports, no total: the end is unknown; the message says the seconds). Clients that reset
 * their request timeout on progress keep waiting for it.
 */
export async function withHeartbeat<T>(
  reporter: ProgressReporter | undefined,
  what: string,
  work: () => Promise<T>,
  everyMs = HEARTBEAT_MS,
): Promise<T> {
  if (reporter === undefined) return work();
  const startedAt = Date.now();
  let beats = 0;
  const timer = setInterval(() => {
    beats++;
    const seconds = Math.round((Date.now() - startedAt) / 1000);
    reporter.report({ progress: beats, message: `${what}: running for ${seconds} s` });
  }, everyMs);
  timer.unref?.();
  try {
    return await work();
  } finally {
    clearInterval(timer);
    reporter.finish();
  }
}
