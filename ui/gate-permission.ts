// Who may resolve which gate (docs/guides/ui-people.md "Who may resolve what"): a person of the
// users file with `may_resolve` resolves only the gates of the flows or the gate ids listed there.
// The server refuses any other resolution (403) and tells the page, which shows the gate read-only.
import type { FlowPage } from "./api-types";
import type { FlowReader } from "./flow-reader";
import type { Loaded } from "./flow-source";
import { mayResolve, type Reviewer, refusalMessage } from "./users";

/** Why `reviewer` may not resolve gate `stepId` of the flow, or null when they may (or the flow is not there: the resolution says so). */
export async function refuseGate(
  reader: FlowReader,
  flowId: string,
  stepId: string,
  reviewer: Reviewer,
): Promise<string | null> {
  if (reviewer.mayResolve === null) return null;
  const loaded = await reader.page(flowId, { limit: 1 });
  if (loaded.kind !== "ok") return null;
  const flowName = loaded.value.flow.flow_name;
  return mayResolve(reviewer, flowName, stepId) ? null : refusalMessage(reviewer, flowName, stepId);
}

/** The flow page as `reviewer` sees it: `may_resolve: false` when they may not resolve its gate. */
export function pageFor(loaded: Loaded<FlowPage>, reviewer: Reviewer): Loaded<FlowPage> {
  if (loaded.kind !== "ok" || loaded.value.gate === null || reviewer.mayResolve === null) return loaded;
  const page = loaded.value;
  if (page.gate === null || mayResolve(reviewer, page.flow.flow_name, page.gate.step_id)) return loaded;
  return { kind: "ok", value: { ...page, may_resolve: false } };
}
