// A flow step: the child flow runs in its own frame and its outcome is reported to the parent step
// (a completed child as the agent's best answer, a failed one not) — the driver answers the
// `execute_flow` payload.
import { type FuzzKind, PLAIN_KIND } from "./kind";

export const flow: FuzzKind = PLAIN_KIND;
