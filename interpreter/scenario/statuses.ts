// The root flow's step statuses at the end of a scenario, from its audit trace (the current
// round's records): a step or gate record is `done`, a skip `skipped` (also a policy that skipped),
// a step the runner saw exhausted or routed away by on_fail `failed`, the step the flow waits on
// `running`, every other step `pending`.
import type { FlowIR, StepStatus } from "../../checker/index";

export function stepStatuses(
  flow: FlowIR,
  trace: unknown,
  failed: ReadonlySet<string>,
  running: string | null,
): readonly (readonly [string, StepStatus])[] {
  const status = new Map<string, StepStatus>(flow.steps.map((s) => [s.id, "pending"]));
  for (const record of Array.isArray(trace) ? trace : []) {
    if (record === null || typeof record !== "object") continue;
    const r = record as Record<string, unknown>;
    const id = typeof r.step_id === "string" ? r.step_id : "";
    if (!status.has(id)) continue;
    const policy = r.effective_policy;
    const skipped = r.type === "skip" || (r.type === "policy" && (policy === "skip" || policy === "skip_if"));
    status.set(id, skipped ? "skipped" : "done");
  }
  for (const id of failed) if (status.has(id)) status.set(id, "failed");
  if (running !== null && status.get(running) === "pending") status.set(running, "running");
  return [...status];
}
