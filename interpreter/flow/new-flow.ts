// A new flow execution (docs/reference/runtime.md §1): the initial state of a planned root flow or a sub-flow
// child, keys in file order, every collection empty.
import type { CheckedSpec, FlowIR } from "../../checker/ir/types";
import type { PyDict } from "../../stdlib/values/value";
import type { FlowState } from "../base/flow-state";
import { newLedger } from "./budget";
import type { Clock } from "./ports";
import type { FlowRun } from "./run";

export interface NewFlow {
  readonly flowId: string;
  readonly rawSpec: string;
  readonly inputs: PyDict;
  readonly cwd: string;
  readonly parentFlowId: string | null;
  readonly parentStepId: string | null;
}

export function newRun(spec: CheckedSpec, flow: FlowIR, init: NewFlow, clock: Clock): FlowRun {
  const state: FlowState = {
    flow_id: init.flowId,
    flow_name: flow.name,
    raw_spec: init.rawSpec,
    inputs: init.inputs,
    step_outputs: new Map(),
    records: [],
    attempts: new Map(),
    current_idx: 0,
    checkpoints: new Map(),
    round: 0,
    rounds: [],
    round_start_step_id: null,
    terminal_status: null,
    iterations: new Map(),
    archived_iterations: [],
    active_iteration: null,
    iteration_outcome: new Map(),
    iteration_best: new Map(),
    iteration_accumulator: new Map(),
    parent_flow_id: init.parentFlowId,
    parent_step_id: init.parentStepId,
    active_child_flow_id: null,
    child_audits: new Map(),
    spec_checksum: "",
    parallel_tasks: new Map(),
    cwd: init.cwd,
    judge_history: new Map(),
    judge_outcome: new Map(),
    synthetic: false,
    budget_state: newLedger(flow.budget),
    review_log: new Map(),
    revision: 0,
    status: "running",
  };
  return {
    state,
    spec,
    flow,
    timing: { startedAt: clock.monoMs(), stepDispatchedAt: new Map(), gateDispatchedAt: new Map() },
  };
}
