// The one response TICK_SPEC's step gives to every accepted report: the same step again, its
// attempts cleared by `next: tick` (docs/reference/runtime.md §4.6, docs/reference/runtime.md §5).
import type { Expected } from "./expected";

export function tickPayload(flowId: string): { readonly [key: string]: Expected } {
  return {
    status: "execute_step",
    flow_id: flowId,
    step_number: 1,
    total_steps: 1,
    step_id: "tick",
    step_mode: "inline",
    intent: "Tick",
    agent: null,
    inputs: {},
    output_contract: null,
    output_fields: {},
    ensure: [],
    retries_remaining: 1,
    model: null,
  };
}
