// Where the checks of big specs run: a spec of BIG_SPEC_BYTES or more is checked in a worker thread
// (worker-jobs.ts), never on the server's event loop, and the worker is terminated at
// CHECK_DEADLINE_MS. Smaller specs are checked in the server's thread: below the threshold a check
// costs about what starting a worker costs (docs/design/performance.md). At most MAX_CHECK_JOBS big checks
// run at once; a call past the cap is answered `check_busy` at once.
import type { Response } from "../interpreter/index";
import { PyDict } from "../stdlib/index";
import type { CheckJobRequest } from "./check-job";
import { defaultStarter, JobPool, type JobStarter } from "./worker-jobs";

/** The size (UTF-8 bytes) from which a spec is checked in a worker. */
const BIG_SPEC_BYTES = 256 * 1024;
/** Big checks running at once, at most (each keeps one core busy). */
const MAX_CHECK_JOBS = 2;
/** When a big check is terminated. */
const CHECK_DEADLINE_MS = 60_000;

export interface CheckJobsOptions {
  readonly start?: JobStarter<CheckJobRequest>;
  readonly limit?: number;
  readonly deadlineMs?: number;
  /** Lower than BIG_SPEC_BYTES only in tests, to send small specs through the worker path. */
  readonly bigSpecBytes?: number;
}

export class CheckJobs {
  private readonly pool: JobPool<CheckJobRequest>;
  private readonly deadlineMs: number;
  private readonly bigSpecBytes: number;

  constructor(options: CheckJobsOptions = {}) {
    this.pool = new JobPool(
      options.start ?? defaultStarter(),
      options.limit ?? MAX_CHECK_JOBS,
      "the check job failed",
    );
    this.deadlineMs = options.deadlineMs ?? CHECK_DEADLINE_MS;
    this.bigSpecBytes = options.bigSpecBytes ?? BIG_SPEC_BYTES;
  }

  /** Whether this spec is checked in a worker. */
  isBig(spec: string): boolean {
    // Cheap before exact: a UTF-8 byte is at most one UTF-16 unit, and a unit at most three bytes.
    if (spec.length >= this.bigSpecBytes) return true;
    if (spec.length * 3 < this.bigSpecBytes) return false;
    return Buffer.byteLength(spec, "utf8") >= this.bigSpecBytes;
  }

  /**
   * `stratum_validate`'s answer, computed in a worker; an `error` answer if the job could not give
   * it. `signal` (the client cancelled the call) terminates the worker at once.
   */
  validate(spec: string, signal?: AbortSignal): Promise<Response> {
    const bytes = Buffer.byteLength(spec, "utf8");
    const size = `${bytes.toLocaleString("en-US")}-byte`;
    return this.pool.run(
      { kind: "check", spec },
      {
        deadlineMs: this.deadlineMs,
        busy: (limit) => ({
          status: "error",
          error_type: "check_busy",
          message: `${limit} checks of big specs (${this.bigSpecBytes.toLocaleString("en-US")} bytes or more) are running on this server (the most it runs at once); call again when one of them has answered.`,
        }),
        ...(signal === undefined ? {} : { signal }),
        stopped: (why) =>
          why === "shutdown"
            ? {
                status: "error",
                error_type: "server_stopping",
                message: `the server is shutting down: the check of the ${size} spec was stopped.`,
              }
            : why === "cancelled"
              ? {
                  status: "error",
                  error_type: "cancelled",
                  message: `the client cancelled the call: the check of the ${size} spec was stopped.`,
                }
              : {
                  status: "error",
                  error_type: "check_deadline_exceeded",
                  message: `the check of the ${size} spec was stopped at its deadline of ${this.deadlineMs / 1000} s; split the spec into smaller ones.`,
                },
      },
    );
  }

  /** Stops every running check (the server is stopping): each call is answered at once. */
  shutdown(): void {
    this.pool.shutdown();
  }
}

/**
 * What `stratum_plan` answers for a spec whose worker check (`validate`'s answer) found errors —
 * the same answer the engine gives an invalid spec: `status`, the first error's keys, then
 * `errors` — or the check's own `error` answer; null for a valid spec (the engine plans it).
 */
export function planRefusal(checked: Response): Response | null {
  if (checked.status === "error") return checked;
  if (checked.valid === true) return null;
  const errors = checked.errors;
  const first = Array.isArray(errors) ? errors[0] : undefined;
  if (!(first instanceof PyDict)) return null;
  const out: Record<string, (typeof checked)[string]> = { status: "error" };
  for (const [key, value] of first.entries.values()) out[String(key)] = value;
  out.errors = errors;
  return out;
}
