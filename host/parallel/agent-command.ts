// Which program runs a task (docs/reference/runtime.md §23.6): the step's agent string's part before `:`
// (no agent: `$STRATUM_DEFAULT_AGENT`, else `claude`) picks the Claude Code CLI or the Codex CLI;
// `opencode` and other prefixes fail the task with the reference's texts. `STRATUM_AGENT_COMMAND`
// replaces all of this with a program of the team's own.

import { pickEnv } from "./agent-env";
import {
  type AgentAnswer,
  type AgentExit,
  readClaudeOutput,
  readCodexOutput,
  readCommandOutput,
} from "./agent-output";

interface AgentCommand {
  readonly program: string;
  readonly args: readonly string[];
  /** Added to the task's environment (agent-env.ts): the CLI's own login, the agent string. */
  readonly env: Readonly<Record<string, string>>;
  /** The task's error when the program is not found. */
  readonly notFound: string;
  readonly read: (exit: AgentExit) => AgentAnswer;
}

export type AgentCommandChoice =
  | { readonly ok: true; readonly command: AgentCommand }
  | { readonly ok: false; readonly error: string };

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where each CLI finds its own login, passed to that CLI only (agent-env.ts). Claude Code: a token
 * from `claude setup-token` and its configuration directory; Codex: its home (`auth.json`). The
 * API-key variables are not among them (the reference strips them so that the CLIs use their login).
 */
const CLAUDE_LOGIN_ENV: readonly string[] = ["CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CONFIG_DIR"];
const CODEX_LOGIN_ENV: readonly string[] = ["CODEX_HOME"];

/** Codex may edit its working directory (a worktree, or the flow's cwd): the equivalent of Claude's acceptEdits. */
const CODEX_SANDBOX = "workspace-write";

export function agentCommand(agent: string | null, cwd: string, env: Env): AgentCommandChoice {
  const named = agent !== null && agent !== "" ? agent : (nonEmpty(env.STRATUM_DEFAULT_AGENT) ?? "claude");
  const custom = nonEmpty(env.STRATUM_AGENT_COMMAND);
  if (custom !== undefined) {
    return {
      ok: true,
      command: {
        program: custom,
        args: [],
        env: { STRATUM_AGENT: named },
        notFound: `STRATUM_AGENT_COMMAND '${custom}' not found (not on PATH, or no such file)`,
        read: readCommandOutput,
      },
    };
  }
  const head = (named.split(":", 1)[0] ?? "").trim();
  if (head === "claude") return { ok: true, command: claudeCommand(env) };
  if (head === "codex") return { ok: true, command: codexCommand(cwd, env) };
  if (head === "opencode") {
    return {
      ok: false,
      error:
        `parallel_dispatch agent '${named}' uses opencode, which is not yet supported in server-side dispatch ` +
        "(see roadmap T2-F5-OPENCODE-DISPATCH). Use 'claude' or 'codex', or keep consumer-side dispatch for this step.",
    };
  }
  return {
    ok: false,
    error: `parallel_dispatch agent '${named}' has unknown connector prefix; expected 'claude' or 'codex'`,
  };
}

/** Print mode, one JSON object at the end, edits accepted; the prompt on stdin (no argv limit, no option injection). */
function claudeCommand(env: Env): AgentCommand {
  const model = nonEmpty(env.CLAUDE_MODEL);
  return {
    program: "claude",
    args: [
      "-p",
      "--output-format",
      "json",
      "--permission-mode",
      "acceptEdits",
      ...(model ? ["--model", model] : []),
    ],
    env: pickEnv(env, CLAUDE_LOGIN_ENV),
    notFound:
      "claude: claude binary not found on PATH. Install Claude Code: npm i -g @anthropic-ai/claude-code",
    read: readClaudeOutput,
  };
}

/** `codex exec --json … -` reads the prompt from stdin; `$CODEX_MODEL` may carry `/<effort>` as in the reference. */
function codexCommand(cwd: string, env: Env): AgentCommand {
  const model = nonEmpty(env.CODEX_MODEL);
  const args = ["exec", "--json", "--skip-git-repo-check", "--sandbox", CODEX_SANDBOX, "-C", cwd];
  if (model !== undefined) {
    const slash = model.indexOf("/");
    const base = slash < 0 ? model : model.slice(0, slash);
    args.push("-m", base);
    if (slash >= 0) args.push("-c", `model_reasoning_effort="${model.slice(slash + 1)}"`);
  }
  args.push("-");
  return {
    program: "codex",
    args,
    env: pickEnv(env, CODEX_LOGIN_ENV),
    notFound:
      "codex: codex binary not found on PATH. Install with: npm i -g @openai/codex  (or: brew install codex)",
    read: readCodexOutput,
  };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === "" ? undefined : v;
}
