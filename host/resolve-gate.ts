// Resolving a gate from outside the MCP server, shared by `stratumc gate` and the page of `stratumc
// ui`: the flow is loaded from the store and checked (unknown → NOT_FOUND, finished or another
// step → conflict, not a gate → not_a_gate_step with its mode, and — for the page — a revision
// other than the one the person saw → conflict); then the engine resolves it exactly as
// stratum_gate_resolve: dispatch, policy loop, persistence under the store's lock and revision check.
import {
  checkGateTarget,
  FlowCorruptError,
  type GateAnswer,
  gateAnswer,
  gateConflict,
  gateError,
  gateFlowNotFound,
  loadFlow,
} from "../interpreter/index";
import type { NodeHost } from "./compose";

export interface GateResolution {
  readonly flowId: string;
  readonly stepId: string;
  readonly outcome: "approve" | "revise" | "kill";
  readonly note: string;
  readonly resolvedBy: string;
  /** The named person deciding (`resolved_by: "human"`): the GateRecord's `resolved_by_name`. */
  readonly resolvedByName?: string;
  /** Also answer `next`, the status after the resolution's dispatch and policy loop. */
  readonly withNext: boolean;
  /** Refuse (conflict) unless the stored flow is at this revision: what the person looked at. */
  readonly expectedRevision?: number;
}

export async function resolveGate(host: NodeHost, r: GateResolution): Promise<GateAnswer> {
  let loaded: Awaited<ReturnType<typeof loadFlow>>;
  try {
    loaded = await loadFlow(host.store, r.flowId, host.restore);
  } catch (e) {
    if (e instanceof FlowCorruptError) return gateError("flow_corrupt", e.message);
    throw e;
  }
  if (loaded === null) return gateFlowNotFound(r.flowId);
  const refused = checkGateTarget(loaded.run, r.stepId);
  if (refused !== null) return refused;
  if (r.expectedRevision !== undefined && loaded.run.state.revision !== r.expectedRevision) {
    return gateConflict(
      r.flowId,
      r.stepId,
      `The flow changed since revision ${r.expectedRevision} (it is at revision ${loaded.run.state.revision})`,
    );
  }
  const response = await host.api().gateResolve({
    flow_id: r.flowId,
    step_id: r.stepId,
    outcome: r.outcome,
    rationale: r.note,
    resolved_by: r.resolvedBy,
    ...(r.resolvedByName === undefined ? {} : { resolved_by_name: r.resolvedByName }),
  });
  return gateAnswer(loaded.run, r.stepId, r.outcome, response, r.withNext);
}
