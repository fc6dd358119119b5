// The events of one flow in one call, in the order its transitions happened. The interpreter
// lists a call's records first and its routes after them (docs/reference/runtime.md §24.1), but a
// route is taken right after the record of the step or gate it leaves, and what the call recorded
// later happened after it: a revise's route back, then the step the cache serves at the target in
// the new round. The property state, which a route clears, needs the order of the transitions.
import type { FlowEvent } from "../../interpreter/index";

type Routed = Extract<FlowEvent, { type: "step_routed" }>;

/** Whether `e` ends a step or gate with a record (what a route leaves from). */
function recorded(
  e: FlowEvent,
): e is Extract<FlowEvent, { type: "step_finished" | "gate_resolved" | "step_skipped" }> {
  return e.type === "step_finished" || e.type === "gate_resolved" || e.type === "step_skipped";
}

/**
 * `events` (of one flow) with each route moved to just after the first record, not yet followed
 * by one, of the step it leaves; a route no record matches stays where it was.
 */
export function inTransitionOrder(events: readonly FlowEvent[]): readonly FlowEvent[] {
  const routes = events.filter((e): e is Routed => e.type === "step_routed");
  if (routes.length === 0) return events;
  const placed = new Set<Routed>();
  const out: FlowEvent[] = [];
  let next = 0;
  for (const e of events) {
    if (e.type === "step_routed") {
      if (!placed.has(e)) out.push(e);
      continue;
    }
    out.push(e);
    if (!recorded(e)) continue;
    for (let r = routes[next]; r !== undefined && r.from_step_id === e.step_id; r = routes[++next]) {
      placed.add(r);
      out.push(r);
    }
  }
  return out;
}
