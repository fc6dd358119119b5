// stratum_gate_ask (docs/guides/mcp-server-gates.md): the person answers the gate in the client.
// The server reads the gate (engine, read-only), sends the client `elicitation/create` with the
// gate's context and a form {outcome, note}, and on `accept` resolves the gate exactly as
// stratum_gate_resolve with `resolved_by: "human"` and the note as the rationale, refused if the
// flow changed while the person read (gate_changed). `decline` / `cancel`, no answer within the
// time limit, or an error of the client leave the gate pending: `status: "gate_pending"`. The wait
// is outside the engine's queue, so every other call goes on being answered meanwhile.
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { ElicitResultSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { GateMode } from "../host/index";
import { type Response, type StratumApi, toolError } from "../interpreter/index";
import { AGENT_MESSAGE_LIMIT, checkAnswer, type GateContext, gateContextOf, gateForm } from "./gate-ask-form";
import { ANSWERS } from "./output-schemas";
import { DECIDES } from "./tool-annotations";
import type { ToolDefinition } from "./tools";

/** Sends one form elicitation to the client of the current call; rejects on timeout, cancel, error. */
export type Elicitor = (params: ElicitRequestFormParams) => Promise<ElicitResult>;

/** What stratum_gate_ask needs of the server: the client's form elicitation, if it has one. */
export interface GateAskContext {
  /** Null when the client did not declare form elicitation in `initialize`. */
  readonly elicit: Elicitor | null;
  readonly gates: GateMode;
}

/** The parts of the SDK's request handler `extra` an elicitor uses. */
interface CallExtra {
  readonly signal: AbortSignal;
  sendRequest(
    request: { method: "elicitation/create"; params: ElicitRequestFormParams },
    schema: typeof ElicitResultSchema,
    options: { signal: AbortSignal; timeout: number },
  ): Promise<ElicitResult>;
}

/**
 * The elicitor of one tools/call: its request goes out as related to the call (a transport that
 * routes by request sends it on the call's stream) and ends with the call's cancellation or after
 * `timeoutMs`. Null when the client cannot show a form.
 */
export function elicitorFor(
  capabilities: { readonly elicitation?: { readonly form?: object } } | undefined,
  extra: CallExtra,
  timeoutMs: number,
): Elicitor | null {
  if (capabilities?.elicitation?.form === undefined) return null;
  return (params) =>
    extra.sendRequest({ method: "elicitation/create", params }, ElicitResultSchema, {
      signal: extra.signal,
      timeout: timeoutMs,
    });
}

export const GATE_ASK_TOOL: ToolDefinition = {
  name: "stratum_gate_ask",
  title: "Ask the person at a gate",
  // The person's answer decides the flow's course as stratum_gate_resolve does.
  annotations: DECIDES,
  answers: ANSWERS.stratum_gate_ask,
  description:
    "Ask the person to decide the gate the flow is waiting at (status await_gate), in this client: they see the gate, the result under review and the outcomes the gate allows, and answer with an outcome and a note. On their answer the gate is resolved with resolved_by human, and the answer is stratum_gate_resolve's (the next step or the completion payload). When they decline or do not answer, the gate stays pending: status gate_pending. Answers elicitation_unsupported when the client cannot show the person a form.",
  schema: z.object({
    flow_id: z.string().describe("The flow id of the await_gate payload."),
    step_id: z.string().describe("The gate step's id."),
    message: z
      .string()
      .max(AGENT_MESSAGE_LIMIT)
      .optional()
      .describe("What the person should know to decide (shown above the result under review)."),
  }),
  call: (api, a, context) =>
    askGate(
      api,
      {
        flowId: a.plain.flow_id as string,
        stepId: a.plain.step_id as string,
        message: typeof a.plain.message === "string" ? a.plain.message : null,
      },
      context.gateAsk,
    ),
};

interface AskArgs {
  readonly flowId: string;
  readonly stepId: string;
  readonly message: string | null;
}

async function askGate(api: StratumApi, args: AskArgs, context: GateAskContext): Promise<Response> {
  if (context.elicit === null) return unsupported(context.gates);
  if (api.gateContext === undefined) return toolError("internal_error", "This server cannot read gates");
  const read = await api.gateContext({ flow_id: args.flowId, step_id: args.stepId });
  const gate = gateContextOf(read);
  // stratum_gate_resolve's refusals (unknown flow, finished, not a gate, another step) as they are.
  if (gate === null) return read;
  let result: ElicitResult;
  try {
    result = await context.elicit(gateForm(gate, args.message));
  } catch (e) {
    return noAnswer(gate, e);
  }
  if (result.action !== "accept") {
    return pending(
      gate,
      result.action,
      `The person ${result.action === "decline" ? "declined to decide" : "dismissed the question"}; the gate is still pending.`,
    );
  }
  const answer = checkAnswer(result.content, gate.allowed);
  if (!answer.ok) {
    return toolError(
      "invalid_gate_answer",
      `The client's answer was refused (${answer.message}); the gate is still pending.`,
    );
  }
  return api.gateResolve({
    flow_id: gate.flowId,
    step_id: gate.stepId,
    outcome: answer.outcome,
    rationale: answer.note,
    resolved_by: "human",
    expected_revision: gate.revision,
  });
}

function unsupported(gates: GateMode): Response {
  const otherwise =
    gates === "human"
      ? "the person resolves it with `stratumc gate` or the page of `stratumc ui`"
      : "ask the person yourself and call stratum_gate_resolve, or they resolve it with `stratumc gate` or the page of `stratumc ui`";
  return toolError(
    "elicitation_unsupported",
    `This client cannot show the person a form (no elicitation in its initialize capabilities): ${otherwise}.`,
  );
}

/** The elicitation ended without an answer: the time limit, the call's cancellation, or the client's error. */
function noAnswer(gate: GateContext, e: unknown): Response {
  if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
    return pending(gate, "timeout", "The person did not answer in time; the gate is still pending.");
  }
  if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) {
    return pending(gate, "error", "The client went away before answering; the gate is still pending.");
  }
  if (e instanceof McpError) {
    return pending(
      gate,
      "error",
      `The client answered the question with error ${e.code}; the gate is still pending.`,
    );
  }
  // The call was cancelled (its signal), or the client's answer was not an elicitation result.
  return pending(gate, "error", "The question ended without a usable answer; the gate is still pending.");
}

function pending(gate: GateContext, action: string, message: string): Response {
  return { status: "gate_pending", flow_id: gate.flowId, step_id: gate.stepId, action, message };
}
