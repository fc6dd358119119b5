// A gate resolved from the page (docs/guides/ui.md "Conflicts"): exactly `stratumc gate`'s resolution
// (host/resolve-gate.ts) with `resolved_by: "human"` (and the signed-in person's name), the note as the rationale and the
// revision the page showed, answered as the HTTP status and plain JSON the page reads. Plain, so
// the worker that reads flows (flow-reader.ts) can run it and send the answer back.
import type { NodeHost } from "../host/index";
import { resolveGate } from "../host/index";
import type { ApiError, GateAnswerView, GateRequest } from "./api-types";

export interface PageGateReply {
  readonly status: number;
  readonly body: GateAnswerView | ApiError;
}

export async function resolvePageGate(
  flowHost: NodeHost,
  flowId: string,
  gate: GateRequest,
  by: string | null = null,
): Promise<PageGateReply> {
  const answer = await resolveGate(flowHost, {
    flowId,
    stepId: gate.step_id,
    outcome: gate.outcome,
    note: gate.note,
    resolvedBy: "human",
    // The signed-in person (`--users`): their name beside `resolved_by: "human"` (the reference's enum).
    ...(by === null ? {} : { resolvedByName: by }),
    withNext: true,
    expectedRevision: gate.revision,
  });
  const output = answer.output as Record<string, unknown>;
  if (answer.kind === "ok") {
    const next = typeof output.next === "string" ? output.next : null;
    return { status: 200, body: { ok: true, outcome: gate.outcome, next } };
  }
  if (answer.kind === "conflict") {
    const detail = typeof output.detail === "string" ? output.detail : "the flow is no longer at this gate";
    return error(409, "conflict", `Someone else acted on this flow first: ${detail}.`);
  }
  const failure = (output.error ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof failure.code === "string" ? failure.code : "error";
  const message = typeof failure.message === "string" ? failure.message : code;
  return code === "NOT_FOUND" ? error(404, "not_found", message) : error(422, code, message);
}

function error(status: number, code: string, message: string): PageGateReply {
  return { status, body: { error: { code, message } } };
}
