// An inline step (an intent without a function): the agent reports one result with
// stratum_step_done, drawn or aimed like a function step's — the driver's shared path.
import { type FuzzKind, PLAIN_KIND } from "./kind";

export const inline: FuzzKind = PLAIN_KIND;
