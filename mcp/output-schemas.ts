// The answers of the tools as JSON Schemas (tools/list `outputSchema`): one schema per answer shape,
// told apart by `status` (docs/reference/runtime.md §17.1), offered as a `oneOf` under
// `type: "object"` as MCP requires. They describe `structuredContent`, the plain JSON of a response.
//
// A client validates every answer against them (the SDK's Client throws on a mismatch), so they hold
// what every answer of a shape has (its status, the ids) and leave the rest open: every object
// admits more keys, and `error_type` is any string, since new error types are documented as they
// are added. The engine's responses are built as plain wire objects, not one TypeScript type per
// shape, so the schemas cannot be derived from types; what keeps them true is test/mcp: every
// answer the end-to-end suites and the recorded scenarios produce goes through an SDK client that
// validates it, and the statuses here are the catalogue's (both directions checked).
import { z } from "zod";

/** One answer shape: a zod object (loose: more keys allowed). */
export type AnswerShape = z.ZodObject;

const text = z.string();
const id = z.string();
const list = z.array(z.unknown());
const object = z.record(z.string(), z.unknown());

/** A shape with this `status` and these further required keys. */
function withStatus(status: string, keys: Readonly<Record<string, z.ZodType>>, about: string): AnswerShape {
  return z.looseObject({ status: z.literal(status), ...keys }).describe(about);
}

/**
 * A shape without `status` (validate's report, the audit, a poll, a judge's result, an agent's
 * text): `status` must be absent, so that no answer with a status matches it as well.
 */
function withoutStatus(keys: Readonly<Record<string, z.ZodType>>, about: string): AnswerShape {
  return z.looseObject({ status: z.never().optional(), ...keys }).describe(about);
}

/** Every tool: a tool error or an execution error (docs/reference/runtime.md §17.2), invalid_arguments included. */
const ERROR = withStatus(
  "error",
  { error_type: text, message: text },
  "An error: error_type says which (docs/reference/runtime.md §17.2); some carry more keys.",
);

// Dispatch payloads (docs/reference/runtime.md §3.2).
const EXECUTE_STEP = withStatus(
  "execute_step",
  { flow_id: id, step_id: id },
  "The step to carry out, then report with stratum_step_done (routed_from and violations when routed).",
);
const AWAIT_GATE = withStatus(
  "await_gate",
  { flow_id: id, step_id: id },
  "A gate waits for stratum_gate_resolve (on_approve, on_revise, on_kill, timeout).",
);
const EXECUTE_FLOW = withStatus(
  "execute_flow",
  { child_flow_id: id, parent_flow_id: id, parent_step_id: id },
  "Drive the child flow child_flow_id, then report its completion to the parent step.",
);
const PARALLEL_DISPATCH = withStatus(
  "parallel_dispatch",
  { flow_id: id, step_id: id, tasks: list },
  "Run this parallel step's tasks (or have the server run them), then report them.",
);
const DISPATCH = [EXECUTE_STEP, AWAIT_GATE, EXECUTE_FLOW, PARALLEL_DISPATCH];

// The same step again, with what was wrong (docs/reference/runtime.md §4).
const retry = (status: string, about: string) =>
  withStatus(status, { flow_id: id, step_id: id, violations: list }, about);
const ENSURE_FAILED = retry("ensure_failed", "ensure (or require, merge) violations: do the step again.");
const SCHEMA_FAILED = retry("schema_failed", "Contract or output_schema violations: do the step again.");
const GUARDRAIL_BLOCKED = retry("guardrail_blocked", "A guardrail blocked the result: do the step again.");

// The flow ended (docs/reference/runtime.md §12 and docs/reference/runtime.md §11.4).
const COMPLETE = withStatus(
  "complete",
  { flow_id: id },
  "The flow is finished: output, trace, total_duration_ms.",
);
const KILLED = withStatus("killed", { flow_id: id }, "The flow was killed.");
const BUDGET_EXHAUSTED = withStatus(
  "budget_exhausted",
  { flow_id: id },
  "The flow's run budget is spent; the flow stopped.",
);
const ENDED = [COMPLETE, KILLED, BUDGET_EXHAUSTED];

/** What a call that moves a flow on answers: the next payload, the step again, or the end. */
const ADVANCE = [...DISPATCH, ENSURE_FAILED, SCHEMA_FAILED, GUARDRAIL_BLOCKED, ...ENDED];

const VALIDATION = withoutStatus(
  { valid: z.boolean(), errors: list, warnings: list },
  "The spec's diagnostics: every one has a code, a message, a path and a line/column.",
);
const AUDIT = z
  .looseObject({
    status: z.enum(["in_progress", "complete", "killed", "budget_exhausted"]),
    flow_id: id,
    flow_name: text,
    trace: list,
  })
  .describe("The flow's trace (docs/reference/runtime.md §11.2); status is the flow's.");
const RACE_PENDING = withStatus(
  "race_pending",
  { flow_id: id, step_id: id, outstanding: list },
  "A race step: no candidate has passed yet and some are still running (outstanding).",
);
const ALREADY_ADVANCED = withStatus(
  "already_advanced",
  { step_id: id },
  "The parallel step is no longer the current one.",
);

/** The answer shapes of each tool, by name (outputSchema adds ERROR to every one). */
export const ANSWERS = {
  stratum_validate: [VALIDATION],
  stratum_plan: [...DISPATCH, COMPLETE],
  stratum_step_done: ADVANCE,
  stratum_audit: [AUDIT],
  stratum_gate_resolve: ADVANCE,
  stratum_gate_ask: [
    ...ADVANCE,
    withStatus(
      "gate_pending",
      { flow_id: id, step_id: id, action: text, message: text },
      "The person declined, dismissed or did not answer (action: decline, cancel, timeout, error); the gate is still pending.",
    ),
  ],
  stratum_check_timeouts: [
    withStatus(
      "no_timeout",
      {},
      "Nothing has expired: remaining_seconds left at a gate with a timeout, else a message.",
    ),
    ...ADVANCE,
  ],
  stratum_skip_step: ADVANCE,
  stratum_commit: [
    withStatus(
      "committed",
      { flow_id: id, label: text, checkpoints: z.array(text) },
      "The checkpoint is saved; checkpoints lists the flow's labels.",
    ),
  ],
  stratum_revert: ADVANCE,
  stratum_iteration_start: [
    withStatus(
      "iteration_started",
      { flow_id: id, step_id: id, iteration: z.number() },
      "The loop started: report each attempt with stratum_iteration_report.",
    ),
  ],
  stratum_iteration_report: [
    withStatus(
      "iteration_continue",
      { flow_id: id, step_id: id, iteration: z.number() },
      "Go on: do another attempt.",
    ),
    withStatus(
      "iteration_exit",
      { flow_id: id, step_id: id, iteration: z.number(), outcome: text },
      "The loop ended (outcome exit_success, exit_stagnation or exit_max): finish the step.",
    ),
  ],
  stratum_iteration_abort: [
    withStatus(
      "iteration_aborted",
      { flow_id: id, step_id: id },
      "The loop was aborted (exit_abort): finish the step.",
    ),
  ],
  stratum_resume: ADVANCE,
  stratum_parallel_done: [...ADVANCE, RACE_PENDING],
  stratum_judge: [
    withoutStatus(
      { met: z.boolean(), clean: z.boolean(), predicates: list, findings: list },
      "The judge's result; report your verdict with stratum_step_done.",
    ),
  ],
  stratum_parallel_start: [
    withStatus(
      "started",
      { flow_id: id, step_id: id, task_count: z.number(), tasks: list },
      "The server runs the tasks: poll with stratum_parallel_poll.",
    ),
  ],
  stratum_parallel_poll: [
    withoutStatus(
      { flow_id: id, step_id: id, summary: object, tasks: object },
      "Every task's entry, and once all have settled the outcome (a payload, or awaiting_consumer_advance / already_advanced).",
    ),
  ],
  stratum_parallel_advance: [...ADVANCE, ALREADY_ADVANCED],
  stratum_list_workflows: [
    withoutStatus(
      { workflows: list, errors: list },
      "The workflows of the directory, with their inputs; invalid files in errors.",
    ),
  ],
  stratum_compile_speckit: [
    withStatus("ok", { yaml: text, flow_name: text }, "The compiled spec as YAML: pass it to stratum_plan."),
  ],
  stratum_draft_pipeline: [withStatus("saved", { path: text }, "The draft is written at path.")],
  stratum_agent_run: [
    withoutStatus(
      { text, correlation_id: id },
      "The agent's final text (+ result or parseError with a schema).",
    ),
    withStatus(
      "budget_exhausted",
      { text, correlation_id: id, budget_state: object },
      "The flow's run budget is spent: the agent was not run.",
    ),
  ],
  stratum_cancel_agent_run: [
    withStatus("cancelled", { correlation_id: id }, "The run is being stopped."),
    withStatus("not_found", { correlation_id: id }, "No run has that correlation_id."),
  ],
  stratum_fuzz: [
    withStatus("fuzzed", { seed: z.number(), runs: z.number(), findings: list }, "The fuzz report."),
    withStatus("deadline_exceeded", { message: text }, "The job stopped at its deadline; what it explored."),
  ],
} satisfies Readonly<Record<string, readonly AnswerShape[]>>;

/** A tool's `outputSchema`: its answer shapes and ERROR as a `oneOf` under `type: "object"`. */
export function outputSchema(shapes: readonly AnswerShape[]): OutputSchema {
  return {
    type: "object",
    oneOf: [...shapes, ERROR].map((shape) => {
      // Draft 7 without `$schema`: what the clients' validators (the SDK's Ajv) compile as given.
      const { $schema: _draft, ...schema } = z.toJSONSchema(shape, { target: "draft-7", io: "output" });
      return schema;
    }),
  };
}

/** A JSON Schema of an object, as tools/list carries it. */
export interface OutputSchema {
  readonly [key: string]: unknown;
  readonly type: "object";
  readonly oneOf: readonly Readonly<Record<string, unknown>>[];
}
