// The programmatic API (interpreter/api.ts) over real MCP tool calls: each method calls one
// stratum_* tool through the SDK Client and decodes the text content with the kind-preserving
// parser (floats stay floats). Every answer is also checked against docs/reference/runtime.md §16.1: one text
// item, `structuredContent` equal to the text, `isError` true exactly for invalid_arguments.
// Deviations are collected in `problems` (the suites report them as failures).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  FlowArgs,
  GateResolveArgs,
  IterationAbortArgs,
  IterationReportArgs,
  JudgeArgs,
  LabelArgs,
  ParallelAdvanceArgs,
  ParallelDoneArgs,
  PlanArgs,
  SkipStepArgs,
  StepArgs,
  StepDoneArgs,
  StratumApi,
} from "../../../interpreter/api";
import { wireToPlain } from "../../../interpreter/wire/encode";
import type { Response, Wire } from "../../../interpreter/wire/wire";
import { parseJson } from "../../../stdlib/values/json";
import { PyDict, type PyValue } from "../../../stdlib/values/value";

/** What a tools/call gave back, decoded. */
export interface ToolAnswer {
  readonly response: Response;
  readonly isError: boolean;
  /** The text content exactly as sent. */
  readonly text: string;
}

/** The response object of a text content item (a JSON object), top-level keys in order. */
function responseOfText(text: string): Response {
  const value: PyValue = parseJson(text);
  if (!(value instanceof PyDict)) throw new Error(`tool text is not a JSON object: ${text.slice(0, 200)}`);
  const out: Record<string, Wire> = Object.create(null);
  for (const [key, item] of value.entries.values()) out[String(key)] = item;
  return out;
}

const plainText = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? Number(x) : x));

export async function callTool(
  client: Client,
  name: string,
  args: Readonly<Record<string, unknown>>,
  problems: string[],
): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: { ...args } });
  const content = result.content;
  const item = Array.isArray(content) && content.length === 1 ? content[0] : undefined;
  if (item?.type !== "text" || typeof item.text !== "string") {
    throw new Error(`${name}: expected one text content item, got ${JSON.stringify(content)}`);
  }
  const response = responseOfText(item.text);
  const isError = result.isError === true;
  const invalidArguments = response.error_type === "invalid_arguments";
  if (isError !== invalidArguments) {
    problems.push(`${name}: isError is ${isError} for ${item.text.slice(0, 300)}`);
  }
  if (plainText(result.structuredContent) !== plainText(wireToPlain(response))) {
    problems.push(
      `${name}: structuredContent ${plainText(result.structuredContent).slice(0, 300)} differs from the text ${item.text.slice(0, 300)}`,
    );
  }
  return { response, isError, text: item.text };
}

/** The StratumApi whose every method is one MCP tool call on the client `connection()` gives. */
export class McpStratumApi implements StratumApi {
  /** Protocol deviations seen so far (see the file header). */
  readonly problems: string[] = [];

  constructor(private readonly connection: () => Promise<Client>) {}

  private async tool(name: string, args: Readonly<Record<string, unknown>>): Promise<Response> {
    return (await callTool(await this.connection(), name, args, this.problems)).response;
  }

  validate(a: { readonly spec: string }) {
    return this.tool("stratum_validate", { spec: a.spec });
  }
  plan(a: PlanArgs) {
    return this.tool("stratum_plan", { spec: a.spec, flow: a.flow, inputs: a.inputs ?? new PyDict() });
  }
  stepDone(a: StepDoneArgs) {
    return this.tool("stratum_step_done", {
      flow_id: a.flow_id,
      step_id: a.step_id,
      result: a.result,
      ...(a.usage === undefined ? {} : { usage: a.usage }),
    });
  }
  audit(a: FlowArgs) {
    return this.tool("stratum_audit", { flow_id: a.flow_id });
  }
  gateResolve(a: GateResolveArgs) {
    return this.tool("stratum_gate_resolve", {
      flow_id: a.flow_id,
      step_id: a.step_id,
      outcome: a.outcome,
      rationale: a.rationale,
      resolved_by: a.resolved_by,
    });
  }
  checkTimeouts(a: FlowArgs) {
    return this.tool("stratum_check_timeouts", { flow_id: a.flow_id });
  }
  skipStep(a: SkipStepArgs) {
    return this.tool("stratum_skip_step", { flow_id: a.flow_id, step_id: a.step_id, reason: a.reason });
  }
  commit(a: LabelArgs) {
    return this.tool("stratum_commit", { flow_id: a.flow_id, label: a.label });
  }
  revert(a: LabelArgs) {
    return this.tool("stratum_revert", { flow_id: a.flow_id, label: a.label });
  }
  iterationStart(a: StepArgs) {
    return this.tool("stratum_iteration_start", { flow_id: a.flow_id, step_id: a.step_id });
  }
  iterationReport(a: IterationReportArgs) {
    return this.tool("stratum_iteration_report", {
      flow_id: a.flow_id,
      step_id: a.step_id,
      result: a.result,
    });
  }
  iterationAbort(a: IterationAbortArgs) {
    return this.tool("stratum_iteration_abort", { flow_id: a.flow_id, step_id: a.step_id, reason: a.reason });
  }
  resume(a: FlowArgs) {
    return this.tool("stratum_resume", { flow_id: a.flow_id });
  }
  parallelDone(a: ParallelDoneArgs) {
    return this.tool("stratum_parallel_done", {
      flow_id: a.flow_id,
      step_id: a.step_id,
      task_results: a.task_results,
      merge_status: a.merge_status,
    });
  }
  judge(a: JudgeArgs) {
    return this.tool("stratum_judge", {
      flow_id: a.flow_id,
      step_id: a.step_id,
      predicates: a.predicates,
      artifacts: Object.fromEntries(a.artifacts),
      ...(a.modified_files === undefined ? {} : { modified_files: a.modified_files }),
      ...(a.stakes === undefined ? {} : { stakes: a.stakes }),
      ...(a.budget === undefined ? {} : { budget: a.budget }),
    });
  }
  parallelStart(a: StepArgs) {
    return this.tool("stratum_parallel_start", { flow_id: a.flow_id, step_id: a.step_id });
  }
  parallelPoll(a: StepArgs) {
    return this.tool("stratum_parallel_poll", { flow_id: a.flow_id, step_id: a.step_id });
  }
  parallelAdvance(a: ParallelAdvanceArgs) {
    return this.tool("stratum_parallel_advance", {
      flow_id: a.flow_id,
      step_id: a.step_id,
      merge_status: a.merge_status,
    });
  }
  listWorkflows(a: { readonly workflows_dir?: string }) {
    return this.tool(
      "stratum_list_workflows",
      a.workflows_dir === undefined ? {} : { workflows_dir: a.workflows_dir },
    );
  }
  compileSpeckit(a: { readonly tasks_dir: string; readonly flow_name?: string }) {
    return this.tool("stratum_compile_speckit", {
      tasks_dir: a.tasks_dir,
      ...(a.flow_name === undefined ? {} : { flow_name: a.flow_name }),
    });
  }
  draftPipeline(a: { readonly draft: PyValue; readonly project_dir?: string }) {
    return this.tool("stratum_draft_pipeline", {
      draft: a.draft,
      ...(a.project_dir === undefined ? {} : { project_dir: a.project_dir }),
    });
  }
}
