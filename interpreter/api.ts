// The programmatic API: one call per tool of docs/reference/runtime.md §16.2, returning the documented
// response objects. The MCP server, the CLI and the tests use it; it is the only way into the
// state machine. Calls are processed one at a time (a queue), each atomically (docs/reference/runtime.md §15).
//
// Arguments are already decoded: `result`, `inputs` and `draft` are user data in the value model
// (use `fromJsonValue` / `parseJson` from stdlib/values/json to build them; `parseJson` keeps the
// integer/float distinction of JSON text). Argument *types* are the caller's job (the MCP server
// answers `invalid_arguments`); values are checked here as the spec says. So are the limits of
// limits.ts on data arguments: the boundary where untrusted values enter (the MCP server's
// argument decoding) refuses a value past them before anything converts it, and the engine
// trusts what it is given rather than measuring every value a second time.
import type { PyDict, PyValue } from "../stdlib/values/value";
import type { Response } from "./wire/wire";

export interface PlanArgs {
  readonly spec: string;
  readonly flow: string;
  /** Default `{}`. */
  readonly inputs?: PyValue;
}

export interface FlowArgs {
  readonly flow_id: string;
}

export interface StepArgs extends FlowArgs {
  readonly step_id: string;
}

export interface StepDoneArgs extends StepArgs {
  readonly result: PyValue;
  /**
   * What the work cost (docs/reference/runtime.md §11.4): `{tokens, dollars}` or
   * `{input_tokens, output_tokens, model}`, charged to the flow's run budget; ignored when it is not
   * an object or the flow has no budget.
   */
  readonly usage?: PyValue;
}

export interface GateResolveArgs extends StepArgs {
  readonly outcome: string;
  readonly rationale: string;
  readonly resolved_by: string;
  /**
   * Refuse (`gate_changed`) unless the flow is still at this revision: the one a person looked at
   * when asked (stratum_gate_ask). Not a parameter of the stratum_gate_resolve tool.
   */
  readonly expected_revision?: number;
  /**
   * The named person deciding (with `resolved_by: "human"`), recorded as the GateRecord's
   * `resolved_by_name`. Not a parameter of the stratum_gate_resolve tool: only stratumc's own
   * front ends that know who the person is (the page's sign-in, `stratumc gate --by`) pass it.
   */
  readonly resolved_by_name?: string;
}

export interface SkipStepArgs extends StepArgs {
  readonly reason: string;
}

export interface LabelArgs extends FlowArgs {
  readonly label: string;
  /**
   * stratum_revert only: refuse a revert that would undo a gate decision a person made (a server
   * with STRATUM_GATES=human; human-decisions.ts). Default false: the reference's revert.
   */
  readonly keep_human_gates?: boolean;
}

export interface IterationReportArgs extends StepArgs {
  readonly result: PyValue;
}

export interface IterationAbortArgs extends StepArgs {
  readonly reason: string;
}

/** `stratum_parallel_done`: every task's result (`{task_id, result, status}` objects) and the merge status. */
export interface ParallelDoneArgs extends StepArgs {
  /** A list (anything else is `invalid_arguments`). */
  readonly task_results: PyValue;
  /**
   * A string, or `{status, bounced_tasks?}` (a missing status is clean): only status "conflict"
   * fails the step (permissive, as the reference); the bounce records come back on failure envelopes.
   */
  readonly merge_status: string | PyDict;
}

/** `stratum_parallel_advance`: "clean" or "conflict", bare or as `{status, bounced_tasks?}`. */
export interface ParallelAdvanceArgs extends StepArgs {
  readonly merge_status: string | PyDict;
}

/** `stratum_judge` (docs/reference/runtime.md §25.3): the caller's copy of the step's judge block, and the evidence. */
export interface JudgeArgs extends StepArgs {
  /** A list of dicts, compared with the step's predicates. */
  readonly predicates: PyValue;
  /** Artifact name → text, seen by deterministic predicates as `artifacts/<name>.txt`. */
  readonly artifacts: ReadonlyMap<string, string>;
  /** Workspace-relative paths, seen as `modified/<path>`; default none. */
  readonly modified_files?: readonly string[];
  /** Default "default". */
  readonly stakes?: string;
  /** A dict, or null (the default). */
  readonly budget?: PyValue;
  /** Not an argument of the tool: aborted when the caller gives up (the verifier agents stop, nothing is recorded). */
  readonly signal?: AbortSignal;
  /** Not an argument of the tool: told as each verifier agent starts (engine/judge-call.ts). */
  readonly onVerifier?: (start: VerifierStart) => void;
}

/** A verifier agent of a `stratum_judge` call starts: `done` of the call's `total` have answered. */
export interface VerifierStart {
  readonly done: number;
  readonly total: number;
  /** The predicate it verifies. */
  readonly predicate: string;
}

/** Before a `stratum_agent_run`: its `correlation_id`, which may name a budgeted flow. */
export interface AgentRunCheckArgs {
  readonly correlation_id: string;
}

/** After a `stratum_agent_run`: what it used (tokens and dollars as the agent reported them). */
export interface AgentRunChargeArgs {
  readonly correlation_id: string;
  readonly tokens: number;
  readonly dollars: number;
  readonly wall_s: number;
}

export interface StratumApi {
  validate(args: { readonly spec: string }): Promise<Response>;
  plan(args: PlanArgs): Promise<Response>;
  stepDone(args: StepDoneArgs): Promise<Response>;
  audit(args: FlowArgs): Promise<Response>;
  gateResolve(args: GateResolveArgs): Promise<Response>;
  checkTimeouts(args: FlowArgs): Promise<Response>;
  /**
   * Read-only: the gate the flow waits at, for a person to answer (`status: "gate_context"`, or
   * stratum_gate_resolve's refusals). The engine has it; an API that only relays calls (tests) may not.
   */
  gateContext?(args: StepArgs): Promise<Response>;
  skipStep(args: SkipStepArgs): Promise<Response>;
  commit(args: LabelArgs): Promise<Response>;
  revert(args: LabelArgs): Promise<Response>;
  iterationStart(args: StepArgs): Promise<Response>;
  iterationReport(args: IterationReportArgs): Promise<Response>;
  iterationAbort(args: IterationAbortArgs): Promise<Response>;
  resume(args: FlowArgs): Promise<Response>;
  parallelDone(args: ParallelDoneArgs): Promise<Response>;
  judge(args: JudgeArgs): Promise<Response>;
  parallelStart(args: StepArgs): Promise<Response>;
  parallelPoll(args: StepArgs): Promise<Response>;
  parallelAdvance(args: ParallelAdvanceArgs): Promise<Response>;
  /** Default `workflows_dir` ".", resolved against the server's working directory. */
  listWorkflows(args: { readonly workflows_dir?: string }): Promise<Response>;
  /** Default `flow_name` "tasks". */
  compileSpeckit(args: { readonly tasks_dir: string; readonly flow_name?: string }): Promise<Response>;
  /** Default `project_dir` ".". */
  draftPipeline(args: { readonly draft: PyValue; readonly project_dir?: string }): Promise<Response>;
  /**
   * Before a `stratum_agent_run` (docs/reference/runtime.md §11.4): `budget_exhausted` when its
   * correlation id names a flow whose run budget is spent (the run must not start), else ok.
   * The engine has both; an API that only relays calls to a server (tests) has neither.
   */
  agentRunCheck?(args: AgentRunCheckArgs): Promise<Response>;
  /** After a `stratum_agent_run`, whatever its outcome: charges the flow its correlation id names. */
  agentRunCharge?(args: AgentRunChargeArgs): Promise<Response>;
}
