// Process exit codes of the CLI, and the error a command throws for bad usage or bad input.

export const EXIT_OK = 0;
/** The evaluation raised a run-time error. */
export const EXIT_RUNTIME_ERROR = 1;
/**
 * `check`, `validate`, `graph`: the spec has errors (or, for `check`, more than --max-warnings
 * warnings); `test`: a scenario test failed or a test file has errors.
 */
export const EXIT_ERRORS = 1;
/**
 * Bad usage, bad option values, or static (syntax/type) errors in the expression; for `check`,
 * `validate` and `graph` also an input that cannot be read.
 */
export const EXIT_USAGE = 2;
/** A bug in stratumc itself (docs/reference/runtime.md §21.2). */
export const EXIT_INTERNAL = 3;
/** `replay --server`: the server sends no typed events, so whether the finding shows again is unknown. */
export const EXIT_UNJUDGED = 4;

/** A user mistake: printed as one line `stratumc: <message>`, exit code 2, never a stack trace. */
export class UsageError extends Error {}
