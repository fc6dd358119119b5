// The tools of stratum-mcp that stratumc does not provide (docs/design/decisions/compatibility.md,
// "The MCP tools of 0.2.69"): none of them is needed by a flow of an accepted spec. They are not
// in tools/list — a client must not plan with a tool that only refuses — but a client that calls
// one by name (its prompts were written for the reference) gets an answer naming the version that
// has it and why stratumc does not, rather than the protocol's "Unknown tool".
import { type Response, toolError } from "../interpreter/index";

interface RefusedTool {
  /** The first stratum-mcp version that has it. */
  readonly since: string;
  /** What it does there, and why stratumc leaves it out. */
  readonly reason: string;
}

const GOAL = "the goal orchestrator's own loop beside specs, not a flow of a spec";
const BACKGROUND =
  "the server drives a flow in the background instead of the consumer; stratumc leaves driving to the consumer";
const GUARD = "the reference's own ledger of guarded resources (state machines with evidence), not flows";

export const REFUSED_TOOLS: ReadonlyMap<string, RefusedTool> = new Map<string, RefusedTool>([
  [
    "stratum_decompose",
    { since: "0.2.50", reason: "it turns prose into predicates for stratum_goal, no flow" },
  ],
  ["stratum_goal", { since: "0.2.50", reason: GOAL }],
  ["stratum_goal_status", { since: "0.2.50", reason: GOAL }],
  ["stratum_goal_decide", { since: "0.2.50", reason: GOAL }],
  ["stratum_goal_archive", { since: "0.2.50", reason: GOAL }],
  ["stratum_flow_run_bg", { since: "0.2.69", reason: BACKGROUND }],
  ["stratum_flow_bg_poll", { since: "0.2.69", reason: BACKGROUND }],
  ["stratum_flow_cancel_bg", { since: "0.2.69", reason: BACKGROUND }],
  ["stratum_guard_register", { since: "0.2.69", reason: GUARD }],
  ["stratum_guard_transition", { since: "0.2.69", reason: GUARD }],
  ["stratum_guard_override", { since: "0.2.69", reason: GUARD }],
  ["stratum_guard_migrate", { since: "0.2.69", reason: GUARD }],
  ["stratum_guard_history", { since: "0.2.69", reason: GUARD }],
  [
    "stratum_distill",
    { since: "0.2.69", reason: "it mines Claude Code transcripts for reusable skills, no flow" },
  ],
]);

/** The answer to a call of a refused tool, or null when `name` is not one. */
export function refusedToolAnswer(name: string): Response | null {
  const refused = REFUSED_TOOLS.get(name);
  if (refused === undefined) return null;
  return toolError(
    "tool_not_supported",
    `${name} is a tool of stratum-mcp ${refused.since} and later: ${refused.reason}. stratumc does not provide it.`,
    { tool: name, since: refused.since },
  );
}
