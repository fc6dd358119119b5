// The error envelope of stratum_parallel_start, _poll and _advance (decision B6): the reference
// answers `{"error": "<code>", "message": "…"}` without `status`; we keep both keys and add
// `status: "error"` and `error_type`, as every other tool error has. Where the reference puts its
// prose in `error` (no code), `error` keeps the prose, `error_type` gets a code of ours and
// `message` repeats the prose.
import type { Response } from "../wire/wire";

export function parallelToolError(errorType: string, message: string, error: string = errorType): Response {
  return { status: "error", error_type: errorType, error, message };
}

/** Server-side runs of a debate's rounds are not implemented yet (docs/runtime.md §23.15). */
export function debateServerDispatchUnsupported(stepId: string): Response {
  return parallelToolError(
    "debate_server_dispatch_unsupported",
    `Step '${stepId}' is a debate step: this server does not run debaters itself yet. Run each round's debaters listed in the dispatch payload yourself and report the round with stratum_parallel_done.`,
  );
}
