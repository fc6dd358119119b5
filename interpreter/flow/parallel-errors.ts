// The error envelope of stratum_parallel_start, _poll and _advance (decision B6): the reference
// answers `{"error": "<code>", "message": "…"}` without `status`; we keep both keys and add
// `status: "error"` and `error_type`, as every other tool error has. Where the reference puts its
// prose in `error` (no code), `error` keeps the prose, `error_type` gets a code of ours and
// `message` repeats the prose.
import type { Response } from "../wire/wire";

export function parallelToolError(errorType: string, message: string, error: string = errorType): Response {
  return { status: "error", error_type: errorType, error, message };
}

/** Server-side runs of a quorum step are not implemented yet (docs/runtime.md §23.13). */
export function quorumServerDispatchUnsupported(stepId: string): Response {
  return parallelToolError(
    "quorum_server_dispatch_unsupported",
    `Step '${stepId}' is a quorum step: this server does not run quorum runs itself yet. Run the runs listed in the dispatch payload yourself and report them with stratum_parallel_done.`,
  );
}
