// The exact responses LOOP_SPEC's steps produce (docs/reference/runtime.md §3.2, docs/reference/runtime.md §4.4, docs/reference/runtime.md §4.5, docs/reference/runtime.md §9, docs/reference/runtime.md §12), as
// expectations for expected.ts. Durations are ANY: the crash test runs on the real clock.
import type { FlowState } from "../../../../interpreter/base/flow-state";
import { wireToPlain } from "../../../../interpreter/wire/encode";
import type { WireObject } from "../../../../interpreter/wire/wire";
import { ANY, type Expected } from "./expected";
import { CHILD_STEPS, ENSURE_OK, ENSURE_OK_FAILED, MAIN_STEPS } from "./loop-spec";

/** Retry limits of the inline steps (`retries` as declared; 1 by default). */
const DRAFT_RETRIES = 2;
const POLISH_RETRIES = 1;
const DRAFT_MAX_ITERATIONS = 3;

type Obj = { readonly [key: string]: Expected };

function inlinePayload(
  flowId: Expected,
  stepNumber: number,
  totalSteps: number,
  stepId: string,
  intent: string,
  inputs: Obj,
  ensure: readonly string[],
  retriesRemaining: number,
): Obj {
  return {
    status: "execute_step",
    flow_id: flowId,
    step_number: stepNumber,
    total_steps: totalSteps,
    step_id: stepId,
    step_mode: "inline",
    intent,
    agent: null,
    inputs,
    output_contract: null,
    output_fields: {},
    ensure,
    retries_remaining: retriesRemaining,
    model: null,
  };
}

export function draftPayload(flowId: Expected, attempts: number): Obj {
  return inlinePayload(
    flowId,
    1,
    MAIN_STEPS.length,
    "draft",
    "Write a draft",
    {},
    [ENSURE_OK],
    DRAFT_RETRIES - attempts,
  );
}

export function polishPayload(flowId: string, attempts: number): Obj {
  // After an on_fail routing `polish` keeps its attempts (docs/reference/runtime.md §4.5), so this can reach 0.
  return inlinePayload(
    flowId,
    3,
    MAIN_STEPS.length,
    "polish",
    "Polish",
    {},
    [ENSURE_OK],
    POLISH_RETRIES - attempts,
  );
}

export function reviewPayload(flowId: string): Obj {
  return {
    status: "await_gate",
    flow_id: flowId,
    step_number: 4,
    total_steps: MAIN_STEPS.length,
    step_id: "review",
    step_mode: "function",
    function: "review_gate",
    agent: null,
    on_approve: null,
    on_revise: "draft",
    on_kill: null,
    timeout: null,
  };
}

export function probePayload(childId: Expected, n: number): Obj {
  return inlinePayload(childId, 1, CHILD_STEPS.length, "probe", "Probe the draft", { n }, [], 1);
}

/** `execute_flow` for the parent's `sub` step; `childStep` null when the child already finished. */
export function executeFlowPayload(parentId: string, childId: Expected, childStep: Expected): Obj {
  return {
    status: "execute_flow",
    parent_flow_id: parentId,
    parent_step_id: "sub",
    child_flow_id: childId,
    child_flow_name: "check",
    child_step: childStep,
    step_number: 2,
    total_steps: MAIN_STEPS.length,
  };
}

/** The completion payload of a finished flow whose trace is `records` (docs/reference/runtime.md §12). */
export function completionPayload(flowId: string, output: Expected, records: readonly Expected[]): Obj {
  return { status: "complete", flow_id: flowId, output, trace: records, total_duration_ms: ANY };
}

/** `output` of a completion payload: the last non-null stored output in execution order. */
export function finalOutput(state: FlowState, order: readonly string[]): Expected {
  for (let i = order.length - 1; i >= 0; i--) {
    const out = state.step_outputs.get(order[i]!);
    if (out !== undefined && out !== null) return plainData(out);
  }
  return null;
}

/** The stored records as expectations: exact, durations included (they are stored numbers). */
export function storedRecords(state: FlowState): Expected[] {
  // Records are plain objects of wire values; their interfaces only lack an index signature.
  return state.records.map((r) => plainData(r as unknown as WireObject));
}

export function stepRecord(stepId: string, attempts: number, round: number, roundStart: string | null): Obj {
  return {
    step_id: stepId,
    function_name: "",
    attempts,
    duration_ms: ANY,
    type: "step",
    round,
    round_start_step_id: roundStart,
    agent: null,
    step_mode: "inline",
    child_flow_id: null,
    cache_hit: false,
    cache_key: null,
  };
}

export function gateRecord(
  outcome: string,
  rationale: string,
  round: number,
  roundStart: string | null,
): Obj {
  return {
    step_id: "review",
    outcome,
    rationale,
    resolved_by: "human",
    duration_ms: ANY,
    type: "gate",
    round,
    round_start_step_id: roundStart,
  };
}

export function iterationStarted(flowId: string): Obj {
  return {
    status: "iteration_started",
    flow_id: flowId,
    step_id: "draft",
    max_iterations: DRAFT_MAX_ITERATIONS,
    exit_criterion: "result.q >= 2",
    iteration: 0,
  };
}

/** The response to the report of `{q}` as iteration `q` (the criterion is met from q = 2). */
export function iterationReported(flowId: string, q: number): Obj {
  const met = q >= 2;
  const common = {
    flow_id: flowId,
    step_id: "draft",
    iteration: q,
    max_iterations: DRAFT_MAX_ITERATIONS,
    exit_criterion_met: met,
  };
  if (met) return { status: "iteration_exit", ...common, outcome: "exit_success", final_result: { q } };
  return { status: "iteration_continue", ...common, outcome: "continue" };
}

export const FAILED_OK = [ENSURE_OK_FAILED] as const;

/** Stored data (Maps, dicts, records) as plain JSON data for an expectation. */
export function plainData(v: Parameters<typeof wireToPlain>[0]): Expected {
  return wireToPlain(v) as Expected;
}
