// `gate approve|reject|revise <flow_id> <step_id>` (docs/reference/runtime.md §21.1, DIV-CLI-GATE): the CLI's own
// checks before the resolution, and the mapping of the stratum_gate_resolve response to the CLI's
// one-line answer. Pure; the command (cli/gate/) loads the flow and calls the API in between.
// The success object is exactly the reference's gate-mutation.v1 shape (`additionalProperties:
// false`); `next` is added only when asked for (`--next`).
import { currentStep, isFinished } from "../flow/current";
import type { FlowRun } from "../flow/run";
import type { Response } from "../wire/wire";
import { flowNotFoundError, QUERY_SCHEMA_VERSION } from "./flow-queries";

export type GateOutcome = "approve" | "kill" | "revise";

/** `reject` is the outcome `kill`. */
export const GATE_ACTION_OUTCOMES: ReadonlyMap<string, GateOutcome> = new Map([
  ["approve", "approve"],
  ["reject", "kill"],
  ["revise", "revise"],
]);

export const RESOLVERS: readonly string[] = ["human", "agent", "system"];

/** What the command prints and how it exits. */
export interface GateAnswer {
  readonly output: Response;
  /** `ok` exit 0, `conflict` exit 2, `error` exit 1. */
  readonly kind: "ok" | "conflict" | "error";
}

export function gateConflict(flowId: string, stepId: string, detail: string): GateAnswer {
  return { output: { conflict: true, flow_id: flowId, step_id: stepId, detail }, kind: "conflict" };
}

/** The flow is unknown or does not restore. */
export function gateFlowNotFound(flowId: string): GateAnswer {
  return { output: flowNotFoundError(flowId), kind: "error" };
}

export function gateError(code: string, message: string): GateAnswer {
  return { output: { error: { code, message } }, kind: "error" };
}

/**
 * The checks of docs/reference/runtime.md §21.1 in their order: finished → conflict; not the current step → conflict;
 * current step not a gate → not_a_gate_step with its mode. Null when the gate can be resolved.
 */
export function checkGateTarget(run: FlowRun, stepId: string): GateAnswer | null {
  const flowId = run.state.flow_id;
  const step = currentStep(run);
  if (isFinished(run) || step === null) return gateConflict(flowId, stepId, "Flow is already complete");
  if (step.id !== stepId)
    return gateConflict(flowId, stepId, `Expected gate step '${step.id}', got '${stepId}'`);
  if (step.kind === "gate") return null;
  const mode =
    step.kind === "function" && step.function !== null
      ? (run.spec.functions.get(step.function)?.mode ?? "function")
      : step.kind;
  return gateError("not_a_gate_step", `Step '${step.id}' is not a gate step (mode='${mode}')`);
}

/**
 * Maps the stratum_gate_resolve response for a gate that passed checkGateTarget on `run` (the flow
 * as loaded before the call). The API re-checks everything on the flow it loads itself, so a flow
 * changed in between by another process still answers the documented conflict.
 */
export function gateAnswer(
  run: FlowRun,
  stepId: string,
  outcome: GateOutcome,
  response: Response,
  withNext = false,
): GateAnswer {
  const flowId = run.state.flow_id;
  if (response.status === "error") {
    const errorType = typeof response.error_type === "string" ? response.error_type : "internal_error";
    const message = typeof response.message === "string" ? response.message : "";
    if (errorType === "max_rounds_exceeded")
      return success(flowId, stepId, outcome, "max_rounds_exceeded", withNext ? null : undefined);
    if (errorType === "flow_already_complete" || errorType === "wrong_step")
      return gateConflict(flowId, stepId, message);
    if (errorType === "flow_not_found") return gateFlowNotFound(flowId);
    return gateError(errorType, message);
  }
  const next = typeof response.status === "string" ? response.status : null;
  return success(flowId, stepId, outcome, routedResult(run, stepId, outcome), withNext ? next : undefined);
}

/** `complete` (approve with null on_approve), `killed` (kill with null on_kill), else `execute_step`. */
function routedResult(run: FlowRun, stepId: string, outcome: GateOutcome): string {
  const step = run.flow.stepById.get(stepId);
  if (outcome === "approve" && step?.onApprove === null) return "complete";
  if (outcome === "kill" && step?.onKill === null) return "killed";
  return "execute_step";
}

/** `next` undefined: left out (the default, gate-mutation.v1); null or a status: printed last. */
function success(
  flowId: string,
  stepId: string,
  outcome: GateOutcome,
  result: string,
  next: string | null | undefined,
): GateAnswer {
  return {
    output: {
      _schema_version: QUERY_SCHEMA_VERSION,
      ok: true,
      flow_id: flowId,
      step_id: stepId,
      outcome,
      result,
      ...(next === undefined ? {} : { next }),
    },
    kind: "ok",
  };
}
