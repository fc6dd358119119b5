// A gate step: the human resolves it (approve, revise or kill, and approve or kill past a flow's
// max_rounds) with stratum_gate_resolve — the driver answers the `await_gate` payload; a gate's
// output is always null.
import { type FuzzKind, PLAIN_KIND } from "./kind";

export const gate: FuzzKind = PLAIN_KIND;
