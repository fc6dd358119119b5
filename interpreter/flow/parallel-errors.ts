// The error envelope of stratum_parallel_start, _poll and _advance (decision B6): the reference
// answers `{"error": "<code>", "message": "…"}` without `status`; we keep both keys and add
// `status: "error"` and `error_type`, as every other tool error has. Where the reference puts its
// prose in `error` (no code), `error` keeps the prose, `error_type` gets a code of ours and
// `message` repeats the prose.
import type { Response } from "../wire/wire";

export function parallelToolError(errorType: string, message: string, error: string = errorType): Response {
  return { status: "error", error_type: errorType, error, message };
}
