// Which program a `stratum_agent_run` call runs, and with which arguments
// (docs/reference/runtime.md §16.6): `type` `claude` runs the Claude Code CLI in print mode, `codex` the Codex CLI, as
// server-side parallel dispatch does (host/parallel/agent-command.ts); `STRATUM_AGENT_COMMAND`
// replaces both with a program of the team's own. The prompt goes on stdin; every value given
// as an argument is checked first so that none can pass for an option.
import { pickEnv } from "../parallel/agent-env";
import { type AgentExit, readClaudeOutput, readCodexOutput } from "../parallel/agent-output";

export interface AgentRunOptions {
  readonly type: string;
  readonly model: string | null;
  readonly allowedTools: readonly string[] | null;
  readonly disallowedTools: readonly string[] | null;
  readonly effort: string | null;
  readonly cwd: string;
}

/** What an agent answered: its text, or why it failed; the tokens its CLI reported (0 when none). */
type AgentRunText =
  | { readonly ok: true; readonly text: string; readonly tokens: number }
  | { readonly ok: false; readonly error: string; readonly tokens: number };

interface AgentRunCommand {
  readonly program: string;
  readonly args: readonly string[];
  /** Added to the agent's environment (its CLI's own login, the call's settings). */
  readonly env: Readonly<Record<string, string>>;
  readonly notFound: string;
  readonly read: (exit: AgentExit) => AgentRunText;
}

export type AgentRunCommandChoice =
  | { readonly ok: true; readonly command: AgentRunCommand }
  | { readonly ok: false; readonly argument: string; readonly problem: string };

type Env = Readonly<Record<string, string | undefined>>;

const VALID_TYPES: readonly string[] = ["claude", "codex"];
/** A model name, an effort, a tool name: anything that cannot be read as an option or a second value. */
const WORD = /^[A-Za-z0-9_.:/@[\]-]+$/;
/** A Claude Code tool rule such as `Bash(git diff:*)`: no leading dash, no line breaks. */
const TOOL_RULE = /^[A-Za-z0-9_][^\n\r\0]*$/;

export function agentRunCommand(options: AgentRunOptions, env: Env): AgentRunCommandChoice {
  if (options.type === "opencode") {
    return refuse(
      "type",
      `agent_type 'opencode' is not yet supported in server-dispatch. Valid types: ${typeList()}`,
    );
  }
  if (!VALID_TYPES.includes(options.type)) {
    return refuse("type", `unknown type '${options.type}'. Valid types: ${typeList()}`);
  }
  if (options.model !== null && (!WORD.test(options.model) || options.model.startsWith("-"))) {
    return refuse("modelID", `'${options.model}' is not a model name`);
  }
  if (options.effort !== null && !/^[a-z]+$/.test(options.effort)) {
    return refuse("effort", `'${options.effort}' is not an effort level (a lowercase word such as high)`);
  }
  for (const [argument, list] of [
    ["allowed_tools", options.allowedTools],
    ["disallowed_tools", options.disallowedTools],
  ] as const) {
    const bad = list?.find((tool) => !TOOL_RULE.test(tool));
    if (bad !== undefined) return refuse(argument, `'${bad}' is not a tool name`);
  }
  const custom = nonEmpty(env.STRATUM_AGENT_COMMAND);
  if (custom !== undefined) return { ok: true, command: customCommand(custom, options) };
  return {
    ok: true,
    command: options.type === "codex" ? codexCommand(options, env) : claudeCommand(options, env),
  };
}

function refuse(argument: string, problem: string): AgentRunCommandChoice {
  return { ok: false, argument, problem };
}

function typeList(): string {
  return VALID_TYPES.map((t) => `'${t}'`).join(", ");
}

/**
 * Print mode with one JSON object at the end and edits accepted (the reference's permission
 * mode); the tool lists as Claude Code's own options. `effort` has no Claude equivalent (the
 * reference ignores it for claude too).
 */
function claudeCommand(options: AgentRunOptions, env: Env): AgentRunCommand {
  const args = ["-p", "--output-format", "json", "--permission-mode", "acceptEdits"];
  if (options.model !== null) args.push("--model", options.model);
  if (options.allowedTools !== null) args.push("--allowedTools", ...options.allowedTools);
  if (options.disallowedTools !== null) args.push("--disallowedTools", ...options.disallowedTools);
  return {
    program: "claude",
    args,
    env: pickEnv(env, ["CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CONFIG_DIR"]),
    notFound:
      "claude: claude binary not found on PATH. Install Claude Code: npm i -g @anthropic-ai/claude-code",
    read: (exit) => textOf(readClaudeOutput(exit)),
  };
}

/** `codex exec --json … -`: the model as the reference defaults it, the effort as a config value. */
function codexCommand(options: AgentRunOptions, env: Env): AgentRunCommand {
  const args = ["exec", "--json", "--skip-git-repo-check", "--sandbox", "workspace-write", "-C", options.cwd];
  args.push("-m", options.model ?? "gpt-5.4");
  if (options.effort !== null) args.push("-c", `model_reasoning_effort="${options.effort}"`);
  args.push("-");
  return {
    program: "codex",
    args,
    env: pickEnv(env, ["CODEX_HOME"]),
    notFound:
      "codex: codex binary not found on PATH. Install with: npm i -g @openai/codex  (or: brew install codex)",
    read: (exit) => textOf(readCodexOutput(exit)),
  };
}

/**
 * The team's own program: the call's settings in its environment (`STRATUM_AGENT` the type,
 * `STRATUM_AGENT_MODEL`, `STRATUM_AGENT_EFFORT`, `STRATUM_AGENT_ALLOWED_TOOLS` and
 * `STRATUM_AGENT_DISALLOWED_TOOLS` one per line); its standard output is the text.
 */
function customCommand(program: string, options: AgentRunOptions): AgentRunCommand {
  const env: Record<string, string> = { STRATUM_AGENT: options.type };
  if (options.model !== null) env.STRATUM_AGENT_MODEL = options.model;
  if (options.effort !== null) env.STRATUM_AGENT_EFFORT = options.effort;
  if (options.allowedTools !== null) env.STRATUM_AGENT_ALLOWED_TOOLS = options.allowedTools.join("\n");
  if (options.disallowedTools !== null)
    env.STRATUM_AGENT_DISALLOWED_TOOLS = options.disallowedTools.join("\n");
  return {
    program,
    args: [],
    env,
    notFound: `STRATUM_AGENT_COMMAND '${program}' not found (not on PATH, or no such file)`,
    read: (exit) => {
      if (exit.code === 0) return { ok: true, text: exit.stdout.replace(/\r?\n$/, ""), tokens: 0 };
      const said = exit.stderr.trim();
      if (said !== "") return { ok: false, error: said, tokens: 0 };
      return {
        ok: false,
        tokens: 0,
        error:
          exit.code === null
            ? `agent command killed by ${exit.signal ?? "a signal"}`
            : `agent command exited with code ${exit.code}`,
      };
    },
  };
}

/** The CLIs' final result is the agent's text; a result that is not text is given as JSON. */
function textOf(answer: ReturnType<typeof readClaudeOutput>): AgentRunText {
  const tokens = answer.tokens;
  if (!answer.ok) return { ok: false, error: answer.error, tokens };
  const result = answer.result;
  if (result === null) return { ok: true, text: "", tokens };
  return { ok: true, text: typeof result === "string" ? result : JSON.stringify(result), tokens };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === "" ? undefined : v;
}
