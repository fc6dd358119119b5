// The daemon's protocol: one JSON line from the client, one JSON line back, then both ends close.
// Which command lines may go to the daemon at all (`servedByDaemon`) is decided here too, so that
// the client and the tests share one rule.

export interface CheckRequest {
  readonly op: "check";
  readonly build: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Standard input, base64, when the command line reads it (`-`); otherwise null. */
  readonly stdin: string | null;
}

interface ControlRequest {
  readonly op: "ping" | "stop";
  readonly build: string;
}

export type Request = CheckRequest | ControlRequest;

/** What was written, in order: [1, text] for standard output, [2, text] for standard error. */
export type Chunk = readonly [1 | 2, string];

export type Response =
  | { readonly ok: true; readonly build: string; readonly chunks: readonly Chunk[]; readonly code: number }
  | { readonly ok: true; readonly build: string; readonly pid: number; readonly idleMs: number }
  | { readonly ok: false; readonly build: string; readonly reason: string };

/** Exit status of the client meaning "not served, nothing read or written: run locally". */
export const EXIT_NOT_SERVED = 75;

/** Largest standard input sent to the daemon (the checker refuses more anyway: MAX_SPEC_BYTES). */
export const MAX_STDIN_BYTES = 8 * 1024 * 1024;

const LOCAL_ONLY = ["--watch", "--fix", "--fix-dry-run", "--deep", "--help"];

/**
 * Whether a command line may be answered by the daemon: `check` or `validate` first, as
 * `stratumc`, and none of the options whose behaviour depends on the process itself (--watch runs
 * until Ctrl-C, --fix writes files, --deep loads the fuzzer, help depends on the terminal's
 * width); short options (`-h`, `-V`) stay local too. `-` (standard input) is served.
 */
export function servedByDaemon(args: readonly string[], programName: string | undefined): boolean {
  if (programName !== undefined && programName !== "stratumc") return false;
  if (args[0] !== "check" && args[0] !== "validate") return false;
  return args.every(
    (a) =>
      !LOCAL_ONLY.some((o) => a === o || a.startsWith(`${o}=`)) &&
      !(a.startsWith("-") && !a.startsWith("--") && a !== "-"),
  );
}

export function encode(message: Request | Response): string {
  return `${JSON.stringify(message)}\n`;
}
