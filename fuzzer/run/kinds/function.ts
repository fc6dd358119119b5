// A function step (`function: <name>`, an `infer` or `compute` function): the agent reports one
// result, drawn from the scenario's pool or aimed at the step's checks (pass, fail, raise, repeat,
// violate, a skip by hand where skip_if allows it), with stratum_step_done — the driver's shared path.
import { type FuzzKind, PLAIN_KIND } from "./kind";

export const fn: FuzzKind = PLAIN_KIND;
