// Who answers gates over MCP (docs/guides/mcp-server-gates.md). With STRATUM_GATES=human the
// server refuses stratum_gate_resolve: an agent could pass any outcome and `resolved_by: "human"`,
// so only a person decides, through stratum_gate_ask, the page of `stratumc ui` or `stratumc gate`.
// And an await_gate answer gets `gate_hint`, the way to have the person decide, whenever this
// server has one to offer beyond the reference's (the client can show a form, or the gates are
// human-only); otherwise the payload stays exactly the reference's (DIV-MCP-GATE-HINT).
import type { GateMode } from "../host/index";
import { type Response, toolError, type Wire } from "../interpreter/index";

const HUMAN_GATE_REQUIRED = "human_gate_required";

export function humanGateRefusal(): Response {
  return toolError(
    HUMAN_GATE_REQUIRED,
    "This server takes gate decisions only from a person (STRATUM_GATES=human): call stratum_gate_ask to ask them in the client, or they resolve the gate with `stratumc gate` or the page of `stratumc ui`.",
  );
}

const ASK_HINT =
  "A person decides this gate: call stratum_gate_ask with this flow_id and step_id (they answer in the client); do not decide it yourself.";

const PERSON_HINT =
  "Only a person resolves gates on this server (STRATUM_GATES=human): ask them to run `stratumc gate approve|reject|revise <flow_id> <step_id>` or use the page of `stratumc ui`, then call stratum_resume.";

/** The hint for this client and server, or null when the reference's payload is kept as it is. */
export function gateHintText(canAsk: boolean, gates: GateMode): string | null {
  if (canAsk) return ASK_HINT;
  return gates === "human" ? PERSON_HINT : null;
}

/** `response` with `gate_hint` on its await_gate payload (top level, or a sub-flow's first step). */
export function withGateHint(response: Response, hint: string | null): Response {
  if (hint === null) return response;
  if (response.status === "await_gate") return { ...response, gate_hint: hint };
  const child = response.child_step;
  if (response.status === "execute_flow" && isPayload(child)) {
    return { ...response, child_step: withGateHint(child, hint) };
  }
  return response;
}

/** A payload is a plain object literal (values such as a PyDict or a Map are instances of a class). */
function isPayload(value: Wire): value is Response {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
