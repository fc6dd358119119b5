// `stratum_agent_run` and `stratum_cancel_agent_run` (docs/reference/runtime.md §16.6): the
// reference's signatures, decoded here and run by the host's agent runs (host/agent-run/). Every
// optional argument may also be null, as the reference's `Optional[...] = None` allows.
import { z } from "zod";
import type { AgentRunBudget } from "../host/index";
import { type Response, type StratumApi, toolError } from "../interpreter/index";
import { ANSWERS } from "./output-schemas";
import { withHeartbeat } from "./progress";
import { REPLACES, STARTS_AGENTS } from "./tool-annotations";
import type { ToolArguments, ToolDefinition } from "./tools";

const optionalText = (what: string) => z.string().nullable().optional().describe(what);
const optionalTools = (what: string) => z.array(z.string()).nullable().optional().describe(what);

const textOrNull = (args: ToolArguments, name: string): string | null => {
  const v = args.plain[name];
  return typeof v === "string" ? v : null;
};
const listOrNull = (args: ToolArguments, name: string): readonly string[] | null => {
  const v = args.plain[name];
  return Array.isArray(v) ? (v as string[]) : null;
};

function unavailable(): Response {
  return toolError(
    "agent_run_unavailable",
    "this server runs no agents (it was started without an agent runner); run the agent yourself",
  );
}

export const AGENT_RUN_TOOL: ToolDefinition = {
  name: "stratum_agent_run",
  title: "Run an agent",
  annotations: STARTS_AGENTS,
  answers: ANSWERS.stratum_agent_run,
  description:
    "Run a prompt with an AI agent (type 'claude' or 'codex', or the program STRATUM_AGENT_COMMAND names) in the workspace and return its final text: {text, correlation_id}. With `schema`, the text is also read as JSON (the whole text, else its last ```json block): {text, result, correlation_id}, or result null and parseError. `context` is put before the prompt. Cancel a run with stratum_cancel_agent_run and its correlation_id (give your own to know it in advance). Failures answer status error: agent_failed, agent_cancelled, agent_busy.",
  schema: z.object({
    prompt: z
      .string()
      .refine((s) => s.trim() !== "", "stratum_agent_run: prompt is required")
      .describe("What the agent is asked to do."),
    type: z.string().default("claude").describe("'claude' (default) or 'codex'."),
    context: optionalText("Put before the prompt, separated by a blank line."),
    schema: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe("A JSON Schema of the expected answer: the text is then read as JSON."),
    modelID: optionalText("The model (takes precedence over model_id)."),
    model_id: optionalText("The model."),
    allowed_tools: optionalTools("Claude Code tools the agent may use."),
    disallowed_tools: optionalTools("Claude Code tools the agent may not use."),
    thinking: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .describe("Accepted for compatibility; the CLIs stratumc runs take no thinking setting."),
    effort: optionalText("Codex reasoning effort (low, medium, high); ignored for claude."),
    cwd: optionalText("The agent's working directory, inside the workspace (default: the server's)."),
    read_jail: optionalText("Refused: stratumc has no read jail."),
    correlation_id: optionalText("The run's id (default: a new UUID), for stratum_cancel_agent_run."),
  }),
  call(api, a, context): Promise<Response> {
    if (context.agents === null) return Promise.resolve(unavailable());
    const budget = budgetOf(api);
    const model = textOrNull(a, "modelID") ?? textOrNull(a, "model_id");
    const agents = context.agents;
    // No count to report: the seconds it has run, so that clients keep waiting for a long run.
    return withHeartbeat(context.progress, "stratum_agent_run", () =>
      agents.run({
        prompt: a.plain.prompt as string,
        type: a.plain.type as string,
        context: textOrNull(a, "context"),
        schema: a.plain.schema === undefined || a.plain.schema === null ? null : a.data("schema"),
        model,
        allowedTools: listOrNull(a, "allowed_tools"),
        disallowedTools: listOrNull(a, "disallowed_tools"),
        effort: textOrNull(a, "effort"),
        cwd: textOrNull(a, "cwd"),
        readJail: textOrNull(a, "read_jail"),
        correlationId: textOrNull(a, "correlation_id"),
        ...(context.signal === undefined ? {} : { signal: context.signal }),
        ...(budget === undefined ? {} : { budget }),
      }),
    );
  },
};

/** The engine's budget calls as the agent runs use them (the decisions are the engine's). */
function budgetOf(api: StratumApi): AgentRunBudget | undefined {
  const { agentRunCheck, agentRunCharge } = api;
  if (agentRunCheck === undefined || agentRunCharge === undefined) return undefined;
  return {
    async check(correlationId) {
      const r = await agentRunCheck.call(api, { correlation_id: correlationId });
      return r.status === "budget_exhausted" ? r : null;
    },
    async charge(correlationId, used) {
      await agentRunCharge.call(api, {
        correlation_id: correlationId,
        tokens: used.tokens,
        dollars: 0,
        wall_s: used.wallS,
      });
    },
  };
}

export const CANCEL_AGENT_RUN_TOOL: ToolDefinition = {
  name: "stratum_cancel_agent_run",
  title: "Cancel an agent run",
  annotations: REPLACES,
  answers: ANSWERS.stratum_cancel_agent_run,
  description:
    "Cancel a running stratum_agent_run by its correlation_id: its agent's whole process group is stopped and the run answers agent_cancelled. Returns {status: cancelled | not_found, correlation_id}.",
  schema: z.object({ correlation_id: z.string().describe("The run's correlation_id.") }),
  call(_api, a, context): Promise<Response> {
    const id = a.plain.correlation_id as string;
    if (context.agents === null) return Promise.resolve({ status: "not_found", correlation_id: id });
    return Promise.resolve(context.agents.cancel(id));
  },
};
