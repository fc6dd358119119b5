// The policy loop (runtime.md §6.4).
import type { Response } from "../wire/wire";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";

/** Applies gate policies to a dispatch payload; returns the final payload (or completion). */
export function policyLoop(tx: Tx, run: FlowRun, payload: Response): Response {
  void tx;
  void run;
  return payload; // A2 implements §6.4.
}
