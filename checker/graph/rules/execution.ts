// Execution positions shared by the order-dependent rules (docs/reference/language.md §9.5.4): the flow's
// stable topological order, or null when the flow has a dependency cycle (the rules are skipped).
import type { FlowDecl, StepDecl } from "../../model/types";
import type { SeqNode } from "../../yaml/nodes";
import { analyseFlow } from "../analysis";

export interface Execution {
  readonly order: readonly StepDecl[];
  readonly position: ReadonlyMap<StepDecl, number>;
}

export function executionOf(flow: FlowDecl): Execution | null {
  const order = analyseFlow(flow).graph.order;
  if (order === null) return null;
  const position = new Map<StepDecl, number>();
  order.forEach((s, i) => {
    position.set(s, i);
  });
  return { order, position };
}

/** The flow's `steps` sequence (for step anchors), even when some item is not a mapping. */
export function stepsSeq(flow: FlowDecl): SeqNode | null {
  if (flow.stepsNode !== null) return flow.stepsNode;
  const value = flow.entry("steps")?.value;
  return value?.kind === "seq" ? value : null;
}
