// The parts of stratum_agent_run that need no process (docs/reference/runtime.md §16.6): reading
// the JSON result the reference's way, and the checks that keep every argument from passing for
// an option of the agent's command line. The runs themselves: test/mcp/agent-run.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AgentRunOptions, agentRunCommand } from "../../../host/agent-run/agent-run-command";
import { extractJsonResult } from "../../../host/agent-run/json-result";
import { PyFloat } from "../../../stdlib";
import { toJson as encodeJson } from "../../../stdlib/values/json";

const base: AgentRunOptions = {
  type: "claude",
  model: null,
  allowedTools: null,
  disallowedTools: null,
  effort: null,
  cwd: "/w",
};

describe("extractJsonResult", () => {
  it("reads the whole text, else the last ```json block, else gives the reference's parse error", () => {
    expect(extractJsonResult(' {"a": 1} ')).toMatchObject({ ok: true });
    const last = extractJsonResult('x\n```json\n{"a": 1}\n```\ny\n```json\n[2.0]\n```');
    expect(last.ok && encodeJson(last.result)).toBe("[2.0]");
    expect(extractJsonResult("```json\nnope\n```")).toEqual({
      ok: false,
      parseError: "Response was not valid JSON",
    });
    expect(extractJsonResult("plain")).toEqual({ ok: false, parseError: "Response was not valid JSON" });
  });

  it("refuses JSON nested past the value limit without parsing it", () => {
    const deep = `${"[".repeat(600)}${"]".repeat(600)}`;
    const answer = extractJsonResult(deep);
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.parseError).toContain("nested 600 levels deep");
  });

  it("gives back any JSON value it is handed whole, floats kept floats", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const answer = extractJsonResult(text);
        expect(answer.ok).toBe(true);
        if (answer.ok) expect(JSON.parse(encodeJson(answer.result))).toEqual(JSON.parse(text));
      }),
      { numRuns: 200 },
    );
    const float = extractJsonResult("1.0");
    expect(float.ok && float.result instanceof PyFloat).toBe(true);
  });
});

describe("agentRunCommand", () => {
  it("builds the claude and codex command lines", () => {
    const claude = agentRunCommand({ ...base, model: "opus", allowedTools: ["Read"] }, {});
    expect(claude.ok && claude.command.args).toEqual([
      "-p",
      "--output-format",
      "json",
      "--permission-mode",
      "acceptEdits",
      "--model",
      "opus",
      "--allowedTools",
      "Read",
    ]);
    const codex = agentRunCommand({ ...base, type: "codex", effort: "high" }, {});
    expect(codex.ok && codex.command.args).toEqual([
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--sandbox",
      "workspace-write",
      "-C",
      "/w",
      "-m",
      "gpt-5.4",
      "-c",
      'model_reasoning_effort="high"',
      "-",
    ]);
  });

  it.each([
    [{ type: "opencode" }, "type"],
    [{ type: "Claude" }, "type"],
    [{ model: "--dangerously-skip-permissions" }, "modelID"],
    [{ model: "a b" }, "modelID"],
    [{ effort: 'high" -c x="y' }, "effort"],
    [{ allowedTools: ["Read", "--permission-mode=bypassPermissions"] }, "allowed_tools"],
    [{ disallowedTools: ["a\nb"] }, "disallowed_tools"],
  ] as const)("refuses %j (%s)", (change, argument) => {
    const choice = agentRunCommand({ ...base, ...change }, {});
    expect(choice.ok).toBe(false);
    expect(!choice.ok && choice.argument).toBe(argument);
  });

  it("passes the CLI's own login only, never the store's variables", () => {
    const claude = agentRunCommand(base, {
      CLAUDE_CODE_OAUTH_TOKEN: "t",
      STRATUM_STORE: "postgres://x",
      CODEX_HOME: "/c",
    });
    expect(claude.ok && claude.command.env).toEqual({ CLAUDE_CODE_OAUTH_TOKEN: "t" });
  });
});
