// The flows a run of one flow can touch: itself and, transitively, every flow its `flow:` steps
// start. A sub-flow step is the only way one flow runs another.
import type { CheckedSpec, FlowIR } from "./types";

/** `root` first, then the sub-flows it reaches, each once, depth first in step order. */
export function reachableFlows(spec: CheckedSpec, root: FlowIR): FlowIR[] {
  const out: FlowIR[] = [];
  const seen = new Set<string>();
  const visit = (flow: FlowIR) => {
    if (seen.has(flow.name)) return;
    seen.add(flow.name);
    out.push(flow);
    for (const step of flow.steps) {
      const child = step.flow === null ? undefined : spec.flows.get(step.flow);
      if (child !== undefined) visit(child);
    }
  };
  visit(root);
  return out;
}
