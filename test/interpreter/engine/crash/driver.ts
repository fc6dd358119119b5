// The agent that drives LOOP_SPEC's `main` flows, shared by the crash child and the tests. Its
// next move depends only on the stored state (the flow's and its active child's), never on memory
// of earlier calls, so a process that starts after a crash — or the test, checking what a crash
// left — picks up exactly where the flow is and knows the exact response to expect.
//
// One round: draft (iteration start, reports q=1 and q=2, a failing result, a good one) → sub
// (the child's probe, then the child's completion reported to the parent) → polish fails and is
// routed back to draft → the same again with polish passing → review: revise while round < ROUNDS,
// then approve (the flow completes).
import type { StratumApi } from "../../../../interpreter/api";
import type { FlowState } from "../../../../interpreter/base/flow-state";
import { wireToPlain } from "../../../../interpreter/wire/encode";
import type { Response } from "../../../../interpreter/wire/wire";
import { fromJsonValue } from "../../../../stdlib/values/json";
import type { PyValue } from "../../../../stdlib/values/value";
import { ANY, type Expected, isPlainObject } from "./expected";
import { CHILD_FLOW, CHILD_STEPS, LOOP_SPEC, MAIN_FLOW, MAIN_STEPS, ROUNDS } from "./loop-spec";
import {
  completionPayload,
  draftPayload,
  executeFlowPayload,
  FAILED_OK,
  finalOutput,
  gateRecord,
  iterationReported,
  iterationStarted,
  plainData,
  polishPayload,
  probePayload,
  reviewPayload,
  stepRecord,
  storedRecords,
} from "./payloads";

/** A flow as stored, with its active child when it has one and the child's file exists. */
export interface FlowView {
  readonly state: FlowState;
  readonly child: FlowState | null;
}

export type Call =
  | { readonly tool: "plan" }
  | { readonly tool: "resume"; readonly flowId: string }
  | { readonly tool: "iterationStart"; readonly flowId: string; readonly stepId: string }
  | {
      readonly tool: "iterationReport";
      readonly flowId: string;
      readonly stepId: string;
      readonly result: PyValue;
    }
  | { readonly tool: "stepDone"; readonly flowId: string; readonly stepId: string; readonly result: PyValue }
  | { readonly tool: "gateResolve"; readonly flowId: string; readonly outcome: "approve" | "revise" };

export interface Move {
  readonly call: Call;
  readonly expected: Expected;
  /** A check beyond the shape: a child created by the call has a new id, used consistently. */
  readonly newChildOf?: FlowState;
}

const REVISE_RATIONALE = "another round";
const APPROVE_RATIONALE = "ship it";

export function perform(api: StratumApi, call: Call): Promise<Response> {
  switch (call.tool) {
    case "plan":
      return api.plan({ spec: LOOP_SPEC, flow: MAIN_FLOW, inputs: fromJsonValue({}) });
    case "resume":
      return api.resume({ flow_id: call.flowId });
    case "iterationStart":
      return api.iterationStart({ flow_id: call.flowId, step_id: call.stepId });
    case "iterationReport":
      return api.iterationReport({ flow_id: call.flowId, step_id: call.stepId, result: call.result });
    case "stepDone":
      return api.stepDone({ flow_id: call.flowId, step_id: call.stepId, result: call.result });
    case "gateResolve": {
      const rationale = call.outcome === "approve" ? APPROVE_RATIONALE : REVISE_RATIONALE;
      return api.gateResolve({
        flow_id: call.flowId,
        step_id: "review",
        outcome: call.outcome,
        rationale,
        resolved_by: "human",
      });
    }
  }
}

export const PLAN_MOVE: Move = { call: { tool: "plan" }, expected: draftPayload(ANY, 0) };

export function isFinished(state: FlowState): boolean {
  return state.current_idx >= stepsOf(state).length;
}

export function isMainFlow(state: FlowState): boolean {
  return state.flow_name === MAIN_FLOW && state.parent_flow_id === null;
}

/** The next call for a `main` flow and its exact response; null once the flow finished. */
export function nextMove(view: FlowView): Move | null {
  const { state, child } = view;
  const id = state.flow_id;
  const attempts = (step: string) => state.attempts.get(step) ?? 0;
  switch (MAIN_STEPS[state.current_idx]) {
    case "draft": {
      const loop = state.active_iteration;
      if (loop !== null && loop.step_id === "draft") {
        const q = loop.count + 1;
        return { call: report(id, { q }), expected: iterationReported(id, q) };
      }
      if (state.iteration_outcome.has("draft")) {
        // Once the loop exited, the first result fails its ensure (the retry drops the outcome).
        return {
          call: stepDone(id, "draft", { ok: false }),
          expected: { ...draftPayload(id, 1), status: "ensure_failed", violations: [...FAILED_OK] },
        };
      }
      if (attempts("draft") === 0) {
        return {
          call: { tool: "iterationStart", flowId: id, stepId: "draft" },
          expected: iterationStarted(id),
        };
      }
      return {
        call: stepDone(id, "draft", { ok: true, n: state.round }),
        expected: executeFlowPayload(id, ANY, probePayload(ANY, state.round)),
        newChildOf: state,
      };
    }
    case "sub": {
      if (child === null) throw new Error(`flow ${id} is at its sub-flow step without a stored child`);
      const n = childInput(child);
      if (!isFinished(child)) {
        const records = [...storedRecords(child), stepRecord("probe", 1, 0, null)];
        return {
          call: stepDone(child.flow_id, "probe", { seen: n }),
          expected: completionPayload(child.flow_id, { seen: n }, records),
        };
      }
      // Report the child's completion to the parent (docs/reference/runtime.md §8.2): the parent unwraps `output`.
      const output = plainData(child.step_outputs.get("probe") ?? null);
      return {
        call: stepDone(id, "sub", { status: "complete", output }),
        expected: polishPayload(id, attempts("polish")),
      };
    }
    case "polish":
      if (state.step_outputs.has("polish")) {
        return { call: stepDone(id, "polish", { ok: true }), expected: reviewPayload(id) };
      }
      return {
        call: stepDone(id, "polish", { ok: false }),
        expected: { ...draftPayload(id, 0), routed_from: "polish", violations: [...FAILED_OK] },
      };
    case "review": {
      if (state.round < ROUNDS) {
        return {
          call: { tool: "gateResolve", flowId: id, outcome: "revise" },
          expected: draftPayload(id, 0),
        };
      }
      const records = [
        ...storedRecords(state),
        gateRecord("approve", APPROVE_RATIONALE, state.round, state.round_start_step_id),
      ];
      return {
        call: { tool: "gateResolve", flowId: id, outcome: "approve" },
        expected: completionPayload(id, finalOutput(state, MAIN_STEPS), records),
      };
    }
    default:
      return null; // finished
  }
}

/** What `stratum_resume` answers for a stored `main` or `check` flow (docs/reference/runtime.md §13). */
export function resumeExpectation(view: FlowView): Expected {
  const { state, child } = view;
  const id = state.flow_id;
  if (isFinished(state)) {
    return completionPayload(id, finalOutput(state, stepsOf(state)), storedRecords(state));
  }
  const attempts = (step: string) => state.attempts.get(step) ?? 0;
  if (state.flow_name === CHILD_FLOW) return probePayload(id, childInput(state));
  switch (MAIN_STEPS[state.current_idx]) {
    case "draft":
      return draftPayload(id, attempts("draft"));
    case "sub": {
      // The stored child is used (docs/reference/runtime.md §8.1); a missing one would be replaced by a new child.
      if (child === null) return executeFlowPayload(id, ANY, probePayload(ANY, outputN(state)));
      const childStep = isFinished(child) ? null : probePayload(child.flow_id, childInput(child));
      return executeFlowPayload(id, child.flow_id, childStep);
    }
    case "polish":
      return polishPayload(id, attempts("polish"));
    default:
      return reviewPayload(id);
  }
}

/**
 * Checks that go beyond the expected shape: a child created by the call has a fresh id, and the
 * execute_flow payload names it consistently. Null when fine.
 */
export function newChildProblem(move: Move, response: Response): string | null {
  if (move.newChildOf === undefined) return null;
  const childId = response.child_flow_id;
  const step = response.child_step;
  if (typeof childId !== "string") return "execute_flow without a child_flow_id";
  if (!isPlainObject(step) || step.flow_id !== childId)
    return "child_step.flow_id differs from child_flow_id";
  if (childId === move.newChildOf.flow_id || childId === move.newChildOf.active_child_flow_id) {
    return `the new child reuses the id ${childId}`;
  }
  return null;
}

/** The flows a call may have written: the flow called, its active child, a child it created. */
export function touchedFlows(move: Move, view: FlowView | null, response: Response): string[] {
  const ids = new Set<string>();
  if (move.call.tool !== "plan") ids.add(move.call.flowId);
  if (view !== null) ids.add(view.state.flow_id);
  if (view?.child) ids.add(view.child.flow_id);
  for (const key of ["flow_id", "child_flow_id"] as const) {
    const v = response[key];
    if (typeof v === "string") ids.add(v);
  }
  return [...ids];
}

function stepsOf(state: FlowState): readonly string[] {
  return state.flow_name === CHILD_FLOW ? CHILD_STEPS : MAIN_STEPS;
}

function childInput(child: FlowState): number {
  const inputs = wireToPlain(child.inputs);
  const n = isPlainObject(inputs) ? inputs.n : undefined;
  if (typeof n !== "number") throw new Error(`child ${child.flow_id} has no integer input n`);
  return n;
}

/** `draft`'s stored `n` (what a new child would get as input). */
function outputN(state: FlowState): number {
  const out = wireToPlain(state.step_outputs.get("draft") ?? null);
  return isPlainObject(out) && typeof out.n === "number" ? out.n : state.round;
}

function stepDone(flowId: string, stepId: string, result: Record<string, unknown>): Call {
  return { tool: "stepDone", flowId, stepId, result: fromJsonValue(result) };
}

function report(flowId: string, result: Record<string, unknown>): Call {
  return { tool: "iterationReport", flowId, stepId: "draft", result: fromJsonValue(result) };
}
