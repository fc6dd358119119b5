// The form stratum_gate_ask shows the person (elicitation/create, mode form): a message with the
// gate's context and a flat schema {outcome, note}, and the check of what the client sends back.
// The client is untrusted: its answer is checked here whatever schema it was shown (an outcome
// the gate does not allow now, a note that is not text or too long, extra fields are refused).
// Limits (docs/guides/mcp-server-gates.md): each result under review is shown as JSON up to
// REVIEWED_LIMIT characters, the whole message up to MESSAGE_LIMIT, the agent's own message up to
// AGENT_MESSAGE_LIMIT, the person's note up to NOTE_LIMIT.
import type { ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import { encodeWire, type Response, type Wire } from "../interpreter/index";

export const REVIEWED_LIMIT = 2_000;
export const MESSAGE_LIMIT = 8_000;
export const AGENT_MESSAGE_LIMIT = 2_000;
export const NOTE_LIMIT = 4_000;

export type Outcome = "approve" | "revise" | "kill";

const OUTCOMES: readonly Outcome[] = ["approve", "revise", "kill"];

/** What the engine's gate context (interpreter/flow/gate-context.ts) says, in the form's terms. */
export interface GateContext {
  readonly flowId: string;
  readonly flowName: string;
  readonly stepId: string;
  readonly intent: string | null;
  readonly onApprove: string | null;
  readonly onRevise: string | null;
  readonly onKill: string | null;
  readonly round: number;
  readonly maxRounds: number | null;
  readonly revision: number;
  readonly allowed: readonly Outcome[];
  readonly reviewed: readonly { readonly stepId: string; readonly output: Wire }[];
}

/** The context from a `gate_context` response; null when the response is not one. */
export function gateContextOf(response: Response): GateContext | null {
  if (response.status !== "gate_context") return null;
  const text = (v: Wire): string | null => (typeof v === "string" ? v : null);
  const allowed = Array.isArray(response.allowed_outcomes)
    ? OUTCOMES.filter((o) => (response.allowed_outcomes as readonly Wire[]).includes(o))
    : [];
  const reviewed = Array.isArray(response.reviewed) ? (response.reviewed as readonly Response[]) : [];
  return {
    flowId: text(response.flow_id) ?? "",
    flowName: text(response.flow_name) ?? "",
    stepId: text(response.step_id) ?? "",
    intent: text(response.intent),
    onApprove: text(response.on_approve),
    onRevise: text(response.on_revise),
    onKill: text(response.on_kill),
    round: typeof response.round === "number" ? response.round : 0,
    maxRounds: typeof response.max_rounds === "number" ? response.max_rounds : null,
    revision: typeof response.revision === "number" ? response.revision : 0,
    allowed,
    reviewed: reviewed.map((r) => ({ stepId: text(r.step_id) ?? "", output: r.output })),
  };
}

/** The elicitation/create parameters for this gate. */
export function gateForm(gate: GateContext, agentMessage: string | null): ElicitRequestFormParams {
  return {
    mode: "form",
    message: gateMessage(gate, agentMessage),
    requestedSchema: {
      type: "object",
      properties: {
        outcome: {
          type: "string",
          title: "Decision",
          description: gate.allowed.map((o) => `${o}: ${routeText(gate, o)}`).join("; "),
          enum: [...gate.allowed],
        },
        note: {
          type: "string",
          title: "Note",
          description: "Why (recorded in the flow's trace as the rationale).",
          maxLength: NOTE_LIMIT,
        },
      },
      required: ["outcome"],
    },
  };
}

function gateMessage(gate: GateContext, agentMessage: string | null): string {
  const lines = [
    `Gate '${gate.stepId}' of flow '${gate.flowName}' (${gate.flowId}) waits for your decision.`,
  ];
  if (gate.intent !== null && gate.intent !== "") lines.push(`It approves: ${gate.intent}`);
  if (gate.maxRounds !== null) lines.push(`Round ${gate.round + 1}; at most ${gate.maxRounds} revises.`);
  if (agentMessage !== null && agentMessage !== "") lines.push(`The agent says: ${agentMessage}`);
  for (const r of gate.reviewed) {
    lines.push(`Result of step '${r.stepId}' under review:`, truncated(encodeWire(r.output), REVIEWED_LIMIT));
  }
  if (gate.reviewed.length === 0) lines.push("No step result is recorded for this gate to review.");
  lines.push(`Choose: ${gate.allowed.map((o) => `${o} (${routeText(gate, o)})`).join(", ")}.`);
  return truncated(lines.join("\n"), MESSAGE_LIMIT);
}

function routeText(gate: GateContext, outcome: Outcome): string {
  switch (outcome) {
    case "approve":
      return gate.onApprove === null ? "the flow completes" : `continue at '${gate.onApprove}'`;
    case "revise":
      return `send the work back to '${gate.onRevise ?? gate.stepId}'`;
    case "kill":
      return gate.onKill === null ? "stop the flow" : `stop the work, continue at '${gate.onKill}'`;
  }
}

/** At most `limit` characters, the cut said (never in the middle of a surrogate pair). */
export function truncated(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const marker = ` … [${text.length - limit} more characters not shown]`;
  let end = Math.max(0, limit - marker.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}${marker}`;
}

export type PersonAnswer =
  | { readonly ok: true; readonly outcome: Outcome; readonly note: string }
  | { readonly ok: false; readonly message: string };

/** The accepted form's content checked: exactly {outcome, note?}, the outcome one allowed now. */
export function checkAnswer(content: unknown, allowed: readonly Outcome[]): PersonAnswer {
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    return { ok: false, message: "the answer has no content object" };
  }
  const fields = content as Record<string, unknown>;
  const extra = Object.keys(fields).filter((k) => k !== "outcome" && k !== "note");
  if (extra.length > 0) return { ok: false, message: `the answer has unknown fields (${extra.length})` };
  // Own properties only: nothing may come from a prototype.
  const outcome = Object.hasOwn(fields, "outcome") ? fields.outcome : undefined;
  const chosen = allowed.find((o) => o === outcome);
  if (chosen === undefined) {
    const given = typeof outcome === "string" ? JSON.stringify(truncated(outcome, 40)) : typeof outcome;
    return { ok: false, message: `outcome must be one of ${allowed.join(", ")}, got ${given}` };
  }
  const note = Object.hasOwn(fields, "note") ? fields.note : "";
  if (typeof note !== "string") return { ok: false, message: `note must be text, got ${typeof note}` };
  if (note.length > NOTE_LIMIT) {
    return { ok: false, message: `note is ${note.length} characters, more than ${NOTE_LIMIT}` };
  }
  return { ok: true, outcome: chosen, note };
}
