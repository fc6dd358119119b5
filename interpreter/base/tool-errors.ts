// The two error shapes of docs/reference/runtime.md §0 and the failures that abort a tool call (docs/reference/runtime.md §15).
import type { Response, Wire } from "../wire/wire";

/** A tool error: `{status: "error", error_type, message, …extra}` (no `success` key). */
export function toolError(
  errorType: string,
  message: string,
  extra: Readonly<Record<string, Wire>> = {},
): Response {
  return { status: "error", error_type: errorType, message, ...extra };
}

/** An execution error: `{status: "error", success: false, error_type, message}`. */
export function executionError(
  message: string,
  errorType = "execution_error",
  extra: Readonly<Record<string, Wire>> = {},
): Response {
  return { status: "error", success: false, error_type: errorType, message, ...extra };
}

export function flowNotFound(flowId: string): Response {
  return toolError("flow_not_found", `No active flow with id '${flowId}'`);
}

/**
 * Thrown by the state machine when a call must be rejected as an execution error, for example a
 * dispatch whose step inputs cannot be resolved (docs/reference/runtime.md §3.3). The engine answers `executionError(message)`
 * and commits nothing.
 */
export class ExecutionFailure extends Error {
  /**
   * Extra keys of the error response (after `message`). An input that cannot be resolved names
   * its flow, step and input (`flow_name`, `step_id`, `input`), so an agent, and the fuzzer, can
   * tell which reference failed; the reference has only the message (extra keys are allowed).
   */
  readonly details: Readonly<Record<string, Wire>>;

  constructor(message: string, details: Readonly<Record<string, Wire>> = {}) {
    super(message);
    this.name = "ExecutionFailure";
    this.details = details;
  }
}

/** Responses that commit even though their status is "error" (docs/reference/runtime.md §15). */
const COMMITTING_ERRORS: ReadonlySet<string> = new Set(["retries_exhausted", "max_rounds_exceeded"]);

export function commits(response: Response): boolean {
  if (response.status !== "error") return true;
  return typeof response.error_type === "string" && COMMITTING_ERRORS.has(response.error_type);
}
