// The tools of docs/reference/runtime.md §16.2 (the reference's sixteen, its four parallel-step tools of
// version 0.3 and its two agent-run tools) plus stratum_fuzz and stratum_gate_ask: names, parameters and descriptions an agent can act on,
// each mapped onto one call of the programmatic API. No flow logic lives here.
import { z } from "zod";
import type { AgentRuns } from "../host/index";
import type { PlanArgs, Response, StratumApi } from "../interpreter/index";
import { PyDict, type PyValue } from "../stdlib/index";
import { AGENT_RUN_TOOL, CANCEL_AGENT_RUN_TOOL } from "./agent-tools";
import { type CheckJobs, planRefusal } from "./check-jobs";
import type { FuzzJobs } from "./fuzz-jobs";
import { FUZZ_TOOL } from "./fuzz-tool";
import { GATE_ASK_TOOL, type GateAskContext } from "./gate-ask-tool";
import { judgeProgress } from "./judge-progress";
import { ANSWERS, type AnswerShape } from "./output-schemas";
import type { ProgressReporter } from "./progress";
import {
  ADVANCES,
  ASKS_AGENT,
  DECIDES,
  DISPATCHES_AGENTS,
  READS,
  REPLACES,
  SETTLES,
  type ToolHints,
} from "./tool-annotations";

/** Decoded arguments: plain values for checking, and the kind-preserving data values by name. */
export interface ToolArguments {
  /**
   * Arguments after schema checking (strings, defaults applied). Data arguments are plain down to
   * the levels the schemas check only: read them with `data`.
   */
  readonly plain: Readonly<Record<string, unknown>>;
  /** The JSON values of data arguments (`result`, `inputs`, `draft`), integers and floats kept apart. */
  data(name: string): PyValue;
}

/**
 * What a tool may use besides the API: where fuzz jobs and the checks of big specs run, and the
 * agent runs of stratum_agent_run (null: this server runs no agents).
 */
interface ToolContext {
  readonly fuzz: FuzzJobs;
  readonly checks: CheckJobs;
  readonly agents: AgentRuns | null;
  /** Aborted when the client cancels this call (MCP notifications/cancelled). */
  readonly signal?: AbortSignal;
  /** The client's form elicitation for stratum_gate_ask, and who may resolve gates. */
  readonly gateAsk: GateAskContext;
  /** The call's progress, when the client asked for it (a progress token; mcp/progress.ts). */
  readonly progress?: ProgressReporter;
}

export interface ToolDefinition {
  readonly name: string;
  /** A short name for people (tools/list `title`). */
  readonly title: string;
  readonly description: string;
  readonly schema: z.ZodObject;
  /** What the tool does to the store, the files and agents (tools/list `annotations`). */
  readonly annotations: ToolHints;
  /** Its answers besides the error shape, each with its own status (tools/list `outputSchema`). */
  readonly answers: readonly AnswerShape[];
  call(api: StratumApi, args: ToolArguments, context: ToolContext): Promise<Response>;
}

const flowId = z
  .string()
  .describe("The flow id returned by stratum_plan (or a child_flow_id from execute_flow).");
const stepId = z.string().describe("The id of the flow's current step, as given in the last payload.");
const jsonObject = z.record(z.string(), z.unknown());

const str = (args: ToolArguments, name: string): string => args.plain[name] as string;

/**
 * `merge_status` of parallel_done / parallel_advance: the bare string, or the object form of 0.2.69
 * whose bounce records say which tasks' work was not merged (a missing status is clean).
 */
/**
 * A bounce record is an object. It sits below the levels of the arguments the request line gives
 * the schemas as plain data (request-line.ts), so it may arrive still decoded (a PyDict).
 */
const bounceRecord = z.looseObject({});

const mergeStatusSchema = (statuses: string) =>
  z
    .union([
      z.string(),
      z.looseObject({
        status: z.string().optional(),
        bounced_tasks: z
          .array(bounceRecord)
          .nullable()
          .optional()
          .describe(
            "Bounce records, e.g. {task_id, reason: merge_conflict, files: [...]} or {task_id, reason: gate_failed, command, exit_code}.",
          ),
      }),
    ])
    .describe(`${statuses}, bare or as {status, bounced_tasks?}.`);

const mergeStatusArg = (args: ToolArguments): string | PyDict => {
  const value = args.data("merge_status");
  return value instanceof PyDict ? value : (value as string);
};

/**
 * A big spec is checked in a worker first, so that an invalid one is answered without holding the
 * event loop; a valid one is planned by the engine, which checks it again in this thread (it needs
 * the checked spec itself). Inputs past the limits never get here: decodeArguments refused them.
 */
async function plan(api: StratumApi, args: PlanArgs, context: ToolContext): Promise<Response> {
  if (context.checks.isBig(args.spec)) {
    const refusal = planRefusal(await context.checks.validate(args.spec, context.signal));
    if (refusal !== null) return refusal;
  }
  return api.plan(args);
}

/** A checked `{name: text}` argument as a Map (user text never keys a plain object). */
function textMap(value: PyValue): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (value instanceof PyDict) {
    for (const [k, v] of value.entries.values())
      if (typeof k === "string" && typeof v === "string") out.set(k, v);
  }
  return out;
}

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: "stratum_validate",
    title: "Validate a spec",
    annotations: READS,
    answers: ANSWERS.stratum_validate,
    description:
      "Check a .stratum.yaml spec without running it. Returns {valid, errors, warnings}; every diagnostic has a stable code, a message, a path and the line/column in the spec. Fix every error, then call stratum_plan.",
    schema: z.object({ spec: z.string().describe("The spec as YAML text (not a file path).") }),
    call: (api, a, context) => {
      const spec = str(a, "spec");
      return context.checks.isBig(spec)
        ? context.checks.validate(spec, context.signal)
        : api.validate({ spec });
    },
  },
  {
    name: "stratum_plan",
    title: "Start a flow",
    annotations: ADVANCES,
    answers: ANSWERS.stratum_plan,
    description:
      "Validate a spec and start one of its flows. Returns the first step to carry out (status execute_step, await_gate or execute_flow), the completion payload when nothing is left to do, or the spec's errors. Keep the flow_id: every later call needs it.",
    schema: z.object({
      spec: z.string().describe("The spec as YAML text."),
      flow: z.string().describe("The name of the flow to run (a key of `flows`)."),
      inputs: jsonObject.default({}).describe("The flow's inputs, by name."),
    }),
    call: (api, a, context) =>
      plan(api, { spec: str(a, "spec"), flow: str(a, "flow"), inputs: a.data("inputs") }, context),
  },
  {
    name: "stratum_step_done",
    title: "Report a step's result",
    annotations: ADVANCES,
    answers: ANSWERS.stratum_step_done,
    description:
      "Report the result of the current step. The result is checked against the step's contract, output_schema, guardrails and ensure expressions. Returns the next step, the same step again with `violations` (ensure_failed / schema_failed / guardrail_blocked: fix the work and report again), a routed step, or the completion payload. For an execute_flow step, report the child flow's completion payload to the parent step.",
    schema: z.object({
      flow_id: flowId,
      step_id: stepId,
      result: jsonObject.describe("The step's output: an object with the fields of its output contract."),
      usage: jsonObject
        .nullable()
        .optional()
        .describe(
          "What this attempt cost, charged to the flow's run budget (ignored when the flow has no budget): pre-priced {tokens, dollars}, or {input_tokens, output_tokens, model} priced by the server's table. Failed attempts count too; when a cap is reached the flow stops with status budget_exhausted.",
        ),
    }),
    call: (api, a) =>
      api.stepDone({
        flow_id: str(a, "flow_id"),
        step_id: str(a, "step_id"),
        result: a.data("result"),
        // Absent and null are the same: no usage reported.
        ...(a.plain.usage === undefined || a.plain.usage === null ? {} : { usage: a.data("usage") }),
      }),
  },
  {
    name: "stratum_audit",
    title: "Audit a flow",
    annotations: READS,
    answers: ANSWERS.stratum_audit,
    description:
      "The trace of a flow: status, steps completed, every record of the current round, archived revise rounds, iteration history and child-flow audits. Works on finished flows too; include it in the commit message.",
    schema: z.object({ flow_id: flowId }),
    call: (api, a) => api.audit({ flow_id: str(a, "flow_id") }),
  },
  {
    name: "stratum_gate_resolve",
    title: "Resolve a gate",
    annotations: DECIDES,
    answers: ANSWERS.stratum_gate_resolve,
    description:
      "Resolve the gate the flow is waiting at (status await_gate): approve continues (or completes the flow), revise sends the flow back to the gate's on_revise step for another round, kill stops it. Usually called for a human decision.",
    schema: z.object({
      flow_id: flowId,
      step_id: z.string().describe("The gate step's id."),
      outcome: z.string().describe("approve, revise or kill."),
      rationale: z.string().describe("Why: recorded in the trace."),
      resolved_by: z.string().describe("Who decided: human, agent or system."),
    }),
    call: (api, a) =>
      api.gateResolve({
        flow_id: str(a, "flow_id"),
        step_id: str(a, "step_id"),
        outcome: str(a, "outcome"),
        rationale: str(a, "rationale"),
        resolved_by: str(a, "resolved_by"),
      }),
  },
  {
    name: "stratum_check_timeouts",
    title: "Check gate timeouts",
    annotations: REPLACES,
    answers: ANSWERS.stratum_check_timeouts,
    description:
      "Check whether the gate the flow is waiting at has passed its timeout; an expired gate is killed (resolved_by system). Returns no_timeout with the remaining seconds otherwise.",
    schema: z.object({ flow_id: flowId }),
    call: (api, a) => api.checkTimeouts({ flow_id: str(a, "flow_id") }),
  },
  {
    name: "stratum_skip_step",
    title: "Skip a step",
    annotations: ADVANCES,
    answers: ANSWERS.stratum_skip_step,
    description:
      "Skip the current (non-gate) step: its output becomes null and the flow moves on. Returns the next step or the completion payload.",
    schema: z.object({
      flow_id: flowId,
      step_id: stepId,
      reason: z.string().describe("Why the step is skipped."),
    }),
    call: (api, a) =>
      api.skipStep({ flow_id: str(a, "flow_id"), step_id: str(a, "step_id"), reason: str(a, "reason") }),
  },
  {
    name: "stratum_commit",
    title: "Save a checkpoint",
    annotations: REPLACES,
    answers: ANSWERS.stratum_commit,
    description:
      "Save a checkpoint of the flow's progress under a label, to return to it later with stratum_revert.",
    schema: z.object({ flow_id: flowId, label: z.string().describe("The checkpoint's name.") }),
    call: (api, a) => api.commit({ flow_id: str(a, "flow_id"), label: str(a, "label") }),
  },
  {
    name: "stratum_revert",
    title: "Return to a checkpoint",
    annotations: REPLACES,
    answers: ANSWERS.stratum_revert,
    description:
      "Restore the flow to a checkpoint saved with stratum_commit and return the step to carry out from there.",
    schema: z.object({ flow_id: flowId, label: z.string().describe("The checkpoint's name.") }),
    // With STRATUM_GATES=human a revert may not undo what a person decided at a gate.
    call: (api, a, context) =>
      api.revert({
        flow_id: str(a, "flow_id"),
        label: str(a, "label"),
        ...(context.gateAsk.gates === "human" ? { keep_human_gates: true } : {}),
      }),
  },
  {
    name: "stratum_iteration_start",
    title: "Start an iteration loop",
    annotations: SETTLES,
    answers: ANSWERS.stratum_iteration_start,
    description:
      "Start an iteration loop on the current step (it must declare max_iterations). Then report each attempt with stratum_iteration_report, and finish the step with stratum_step_done.",
    schema: z.object({ flow_id: flowId, step_id: stepId }),
    call: (api, a) => api.iterationStart({ flow_id: str(a, "flow_id"), step_id: str(a, "step_id") }),
  },
  {
    name: "stratum_iteration_report",
    title: "Report an iteration",
    annotations: ADVANCES,
    answers: ANSWERS.stratum_iteration_report,
    description:
      "Report one attempt of the active iteration loop. Returns iteration_continue, or iteration_exit with the outcome (exit_success when exit_criterion holds, exit_stagnation, exit_max) and, with accumulate, the items collected so far.",
    schema: z.object({
      flow_id: flowId,
      step_id: stepId,
      result: jsonObject.describe("This attempt's result."),
    }),
    call: (api, a) =>
      api.iterationReport({
        flow_id: str(a, "flow_id"),
        step_id: str(a, "step_id"),
        result: a.data("result"),
      }),
  },
  {
    name: "stratum_iteration_abort",
    title: "Abort an iteration loop",
    annotations: SETTLES,
    answers: ANSWERS.stratum_iteration_abort,
    description:
      "Abort the active iteration loop (outcome exit_abort); then finish the step with stratum_step_done.",
    schema: z.object({
      flow_id: flowId,
      step_id: stepId,
      reason: z.string().describe("Why the loop stops."),
    }),
    call: (api, a) =>
      api.iterationAbort({
        flow_id: str(a, "flow_id"),
        step_id: str(a, "step_id"),
        reason: str(a, "reason"),
      }),
  },
  {
    name: "stratum_resume",
    title: "Resume a flow",
    annotations: SETTLES,
    answers: ANSWERS.stratum_resume,
    description:
      "Continue a flow from an earlier session: returns the step to carry out now, or the completion payload of a finished flow.",
    schema: z.object({ flow_id: flowId }),
    call: (api, a) => api.resume({ flow_id: str(a, "flow_id") }),
  },
  {
    name: "stratum_parallel_done",
    title: "Report a parallel step",
    annotations: ADVANCES,
    answers: ANSWERS.stratum_parallel_done,
    description:
      "Report a parallel_dispatch step after running its tasks yourself (status parallel_dispatch: one agent per task, intent_template filled from each task). Give every task's {task_id, result, status: complete|failed} and the merge status of applying their work: clean or conflict, or {status, bounced_tasks} naming the tasks whose work was bounced (each bounce is also worded in violations). The step fails (ensure_failed, then on_fail / retries_exhausted) when `require` is not met, the merge conflicted, a task's certificate (task_reasoning_template) is missing a section, or an ensure fails; otherwise the flow moves on with {tasks, merge_status, completed, failed, outcome} as the step's output. Every failure envelope carries bounced_tasks (the records given, else []).",
    schema: z.object({
      flow_id: flowId,
      step_id: z.string().describe("The parallel_dispatch step's id."),
      task_results: z
        .array(jsonObject)
        .describe(
          "One object per task: {task_id, result, status}; status 'complete' or anything else for failed.",
        ),
      merge_status: mergeStatusSchema("'clean', or 'conflict' when the tasks' work could not be merged"),
    }),
    call: (api, a) =>
      api.parallelDone({
        flow_id: str(a, "flow_id"),
        step_id: str(a, "step_id"),
        task_results: a.data("task_results"),
        merge_status: mergeStatusArg(a),
      }),
  },
  {
    name: "stratum_judge",
    title: "Judge a step's evidence",
    annotations: ASKS_AGENT,
    answers: ANSWERS.stratum_judge,
    description:
      "Judge the current judge step (step_mode judge): pass back its predicates, stakes and budget exactly as the payload gave them, and the evidence as artifacts ({name: text}, seen by predicates as artifacts/<name>.txt) and modified_files (workspace paths, seen as modified/<path>). Deterministic predicates (expressions with file_exists, file_contains, len, min, max, bool, int, str) are decided here; verified and judged ones by a verifier agent (claude, read-only tools, run like stratum_agent_run in a copy of the evidence) that answers a verdict with cited evidence; a verifier that fails or gives no verdict fails the call (verifier_failed). Returns the judge's result {met, clean, predicates, findings, …} without advancing the flow: report your verdict with stratum_step_done.",
    schema: z.object({
      flow_id: flowId,
      step_id: z.string().describe("The judge step's id."),
      predicates: z.array(jsonObject).describe("The payload's predicates, unchanged."),
      artifacts: z.record(z.string(), z.string()).describe("The evidence: artifact name → text."),
      modified_files: z
        .array(z.string())
        .optional()
        .describe("Workspace-relative paths of the files the work changed."),
      stakes: z.string().default("default").describe("The payload's stakes: cheap, default or paranoid."),
      budget: jsonObject.nullable().optional().describe("The payload's budget, or null."),
    }),
    async call(api, a, context) {
      // The verifier agents can take minutes: the call reports each one, and a cancel stops it.
      const progress = context.progress === undefined ? undefined : judgeProgress(context.progress);
      try {
        return await api.judge({
          flow_id: str(a, "flow_id"),
          step_id: str(a, "step_id"),
          predicates: a.data("predicates"),
          artifacts: textMap(a.data("artifacts")),
          ...(a.plain.modified_files === undefined
            ? {}
            : { modified_files: a.plain.modified_files as string[] }),
          stakes: str(a, "stakes"),
          budget: a.plain.budget === undefined ? null : a.data("budget"),
          ...(context.signal === undefined ? {} : { signal: context.signal }),
          ...(progress === undefined ? {} : { onVerifier: progress.onVerifier }),
        });
      } finally {
        progress?.stop();
      }
    },
  },
  {
    name: "stratum_parallel_start",
    title: "Run a parallel step's tasks",
    annotations: DISPATCHES_AGENTS,
    answers: ANSWERS.stratum_parallel_start,
    description:
      "Let the server run the tasks of the current parallel_dispatch step (one agent per task, max_concurrent at a time, each in its own git worktree unless isolation is none). Returns {status: started, task_count, tasks}; then call stratum_parallel_poll. Answers server_dispatch_unavailable when this server has no agent runner: run the tasks yourself and use stratum_parallel_done.",
    schema: z.object({ flow_id: flowId, step_id: z.string().describe("The parallel_dispatch step's id.") }),
    call: (api, a) => api.parallelStart({ flow_id: str(a, "flow_id"), step_id: str(a, "step_id") }),
  },
  {
    name: "stratum_parallel_poll",
    title: "Poll a parallel step",
    annotations: SETTLES,
    answers: ANSWERS.stratum_parallel_poll,
    description:
      "The state of a server-run parallel_dispatch step: a summary by task state, every task's entry, and once all tasks have settled the outcome — the next step's payload (the flow advanced), the step again with violations, awaiting_consumer_advance (defer_advance: call stratum_parallel_advance) or already_advanced. Safe to call at any pace.",
    schema: z.object({ flow_id: flowId, step_id: z.string().describe("The parallel_dispatch step's id.") }),
    call: (api, a) => api.parallelPoll({ flow_id: str(a, "flow_id"), step_id: str(a, "step_id") }),
  },
  {
    name: "stratum_parallel_advance",
    title: "Advance a parallel step",
    annotations: SETTLES,
    answers: ANSWERS.stratum_parallel_advance,
    description:
      "Advance a server-run parallel_dispatch step that declares defer_advance: true, after poll answered awaiting_consumer_advance and you merged the tasks' work: merge_status 'clean' or 'conflict', or {status, bounced_tasks} (a conflict fails the step; failure envelopes carry bounced_tasks). Returns the next payload, or {status: already_advanced, step_id}.",
    schema: z.object({
      flow_id: flowId,
      step_id: z.string().describe("The parallel_dispatch step's id."),
      merge_status: mergeStatusSchema("'clean' or 'conflict'"),
    }),
    call: (api, a) =>
      api.parallelAdvance({
        flow_id: str(a, "flow_id"),
        step_id: str(a, "step_id"),
        merge_status: mergeStatusArg(a),
      }),
  },
  {
    name: "stratum_list_workflows",
    title: "List workflows",
    annotations: READS,
    answers: ANSWERS.stratum_list_workflows,
    description:
      "List the workflows (specs with a `workflow` block) among the *.stratum.yaml files of a directory, with their inputs; invalid files are listed in `errors`.",
    schema: z.object({
      workflows_dir: z
        .string()
        .default(".")
        .describe("The directory, relative to the server's working directory."),
    }),
    call: (api, a) => api.listWorkflows({ workflows_dir: str(a, "workflows_dir") }),
  },
  {
    name: "stratum_compile_speckit",
    title: "Compile spec-kit tasks",
    annotations: READS,
    answers: ANSWERS.stratum_compile_speckit,
    description:
      "Compile a directory of spec-kit task files (*.md) into a version 0.1 spec with one step per task; pass the returned yaml to stratum_plan.",
    schema: z.object({
      tasks_dir: z.string().describe("The directory of task files."),
      flow_name: z.string().default("tasks").describe("The name of the generated flow."),
    }),
    call: (api, a) => api.compileSpeckit({ tasks_dir: str(a, "tasks_dir"), flow_name: str(a, "flow_name") }),
  },
  {
    name: "stratum_draft_pipeline",
    title: "Save a pipeline draft",
    annotations: REPLACES,
    answers: ANSWERS.stratum_draft_pipeline,
    description:
      "Save a pipeline draft ({name, phases: [{name, capability, policy}]}) to <project_dir>/.stratum/pipeline-draft.json for an external editor.",
    schema: z.object({
      draft: jsonObject.describe("The draft."),
      project_dir: z.string().default(".").describe("The project directory."),
    }),
    call: (api, a) => api.draftPipeline({ draft: a.data("draft"), project_dir: str(a, "project_dir") }),
  },
  // The reference's agent-run tools (since its 0.2.50), run by the host.
  AGENT_RUN_TOOL,
  CANCEL_AGENT_RUN_TOOL,
  // stratumc adds tools the reference does not have.
  FUZZ_TOOL,
  GATE_ASK_TOOL,
];
