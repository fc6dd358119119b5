// `stratum_audit` (runtime.md §11.2).
import type { Response } from "../wire/wire";
import type { Clock } from "./ports";
import type { FlowRun } from "./run";

/** The audit object of a flow (also the child audit snapshot of §8.2). */
export function auditOf(run: FlowRun, clock: Clock): Response {
  void run;
  void clock;
  throw new Error("auditOf: not implemented yet (A2)");
}
