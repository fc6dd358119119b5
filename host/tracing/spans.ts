// The engine's events (interpreter: FlowEvent) as finished spans (docs/guides/tracing.md): a span per flow,
// per step attempt, per gate wait, and a sub-flow as the parent's step span with the child's flow
// span under it. Only events that end something give a span; its start is its end less the
// duration the engine measured, so nothing is kept between calls and a span that began in another
// process still gets a start (since the flow was restored here, marked `stratum.start_estimated`).
import type { FlowEvent, FlowEventBase, StepPlace } from "../../interpreter/index";
import { spanIdOf, traceIdOf } from "./ids";
import type { AttributeValue, Span, SpanStatus } from "./span";

type Attributes = [string, AttributeValue][];

/** The span id of a flow. */
function flowSpanId(flowId: string): string {
  return spanIdOf("flow", flowId);
}

/**
 * The span id of a step attempt. A sub-flow step's is named by its child, which the child's flow
 * span can name as its parent without knowing the parent's round or records.
 */
function stepSpanId(flowId: string, place: StepPlace, attempt: number, childFlowId: string | null): string {
  if (childFlowId !== null) return spanIdOf("subflow", flowId, place.step_id, childFlowId);
  return spanIdOf("step", flowId, place.round, place.seq, place.step_id, attempt);
}

function gateSpanId(flowId: string, place: StepPlace): string {
  return spanIdOf("gate", flowId, place.round, place.seq, place.step_id);
}

const OK: SpanStatus = { code: "ok", message: "" };
const UNSET: SpanStatus = { code: "unset", message: "" };

/** The span an event ends, or null for an event that only begins something. */
export function spanOf(event: FlowEvent): Span | null {
  switch (event.type) {
    case "flow_started":
    case "step_dispatched":
    case "gate_awaited":
    case "members_judged":
    case "expression_failed":
    case "step_routed":
      return null;
    case "flow_finished": {
      const parent =
        event.parent_flow_id === null || event.parent_step_id === null
          ? null
          : spanIdOf("subflow", event.parent_flow_id, event.parent_step_id, event.flow_id);
      const attributes: Attributes = [...flowAttributes(event), ["stratum.flow.status", event.status]];
      if (event.parent_flow_id !== null) attributes.push(["stratum.parent_flow.id", event.parent_flow_id]);
      if (event.parent_step_id !== null) attributes.push(["stratum.parent_step.id", event.parent_step_id]);
      const status =
        event.status === "exhausted" || event.status === "budget_exhausted"
          ? error(`flow ${event.status}`)
          : event.status === "complete"
            ? OK
            : UNSET;
      return span(
        event,
        flowSpanId(event.flow_id),
        parent,
        `flow ${event.flow_name}`,
        event.duration_ms,
        attributes,
        status,
      );
    }
    case "step_finished":
    case "step_abandoned": {
      const gate = event.type === "step_abandoned" && event.step_mode === "gate";
      const id = gate
        ? gateSpanId(event.flow_id, event)
        : stepSpanId(event.flow_id, event, event.attempt, event.child_flow_id);
      const outcome = event.type === "step_finished" ? event.outcome : "abandoned";
      const attributes: Attributes = [
        ...placeAttributes(event),
        ["stratum.step.mode", event.step_mode],
        ["stratum.step.attempt", event.attempt],
        ["stratum.step.status", outcome],
      ];
      let status = outcome === "accepted" ? OK : UNSET;
      if (event.type === "step_finished") {
        if (event.failure !== null) attributes.push(["stratum.step.failure", event.failure]);
        if (event.violations.length > 0) {
          attributes.push(["stratum.violations", event.violations]);
          status = error(event.violations.join("; "));
        }
      }
      if (event.child_flow_id !== null) attributes.push(["stratum.child_flow.id", event.child_flow_id]);
      if (!event.dispatched_here) attributes.push(["stratum.start_estimated", true]);
      const name = `${gate ? "gate" : event.step_mode === "flow" ? "subflow" : "step"} ${event.step_id}`;
      return span(event, id, flowSpanId(event.flow_id), name, event.duration_ms, attributes, status);
    }
    case "gate_resolved": {
      const attributes: Attributes = [
        ...placeAttributes(event),
        ["stratum.step.mode", "gate"],
        ["stratum.gate.outcome", event.outcome],
        ["stratum.gate.resolved_by", event.resolved_by],
        ["stratum.gate.rationale", event.rationale],
      ];
      if (event.resolved_by_name !== undefined)
        attributes.push(["stratum.gate.resolved_by_name", event.resolved_by_name]);
      if (!event.dispatched_here) attributes.push(["stratum.start_estimated", true]);
      const id = gateSpanId(event.flow_id, event);
      return span(
        event,
        id,
        flowSpanId(event.flow_id),
        `gate ${event.step_id}`,
        event.duration_ms,
        attributes,
        OK,
      );
    }
    case "step_skipped": {
      const attributes: Attributes = [
        ...placeAttributes(event),
        ["stratum.step.status", event.kind === "skip" ? "skipped" : "approved_by_policy"],
        ["stratum.skip.reason", event.reason],
      ];
      const id = spanIdOf("skip", event.flow_id, event.round, event.seq, event.step_id);
      return span(event, id, flowSpanId(event.flow_id), `skip ${event.step_id}`, 0, attributes, UNSET);
    }
  }
}

function span(
  event: FlowEventBase,
  spanId: string,
  parentSpanId: string | null,
  name: string,
  durationMs: number,
  attributes: Attributes,
  status: SpanStatus,
): Span {
  return {
    traceId: traceIdOf(event.root_flow_id),
    spanId,
    parentSpanId,
    name,
    startMs: event.time_ms - durationMs,
    endMs: event.time_ms,
    attributes,
    status,
  };
}

function flowAttributes(event: FlowEventBase): Attributes {
  return [
    ["stratum.flow.id", event.flow_id],
    ["stratum.flow.name", event.flow_name],
  ];
}

function placeAttributes(event: FlowEventBase & StepPlace): Attributes {
  return [...flowAttributes(event), ["stratum.step.id", event.step_id], ["stratum.round", event.round]];
}

function error(message: string): SpanStatus {
  return { code: "error", message };
}
