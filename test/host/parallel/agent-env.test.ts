// The agent's environment (host/parallel/agent-env.ts, docs/reference/runtime.md §23.6): an allow-list,
// STRATUM_AGENT_ENV's additions, names that are never passed, and each CLI's own login.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agentCommand } from "../../../host/parallel/agent-command";
import {
  agentEnvSetting,
  BASE_ENV_NAMES,
  isProtectedEnvName,
  taskEnvironment,
} from "../../../host/parallel/agent-env";

const ids = { flowId: "F", stepId: "S", taskId: "T" };

describe("taskEnvironment", () => {
  it("passes the allow-list and LC_*, nothing else, and sets the task ids", () => {
    const env = taskEnvironment(
      {
        PATH: "/bin",
        HOME: "/home/u",
        LANG: "C.UTF-8",
        LC_ALL: "C",
        LC_TIME: "en_GB",
        TZ: "UTC",
        TMPDIR: "/tmp/x",
        AWS_SECRET_ACCESS_KEY: "s",
        GITHUB_TOKEN: "s",
        SSH_AUTH_SOCK: "/tmp/agent",
        ANTHROPIC_API_KEY: "s",
        CLAUDECODE: "1",
        STRATUM_TASK_ID: "stale",
        NOT_SET: undefined,
      },
      ids,
    );
    expect(env).toEqual({
      PATH: "/bin",
      HOME: "/home/u",
      LANG: "C.UTF-8",
      LC_ALL: "C",
      LC_TIME: "en_GB",
      TZ: "UTC",
      TMPDIR: "/tmp/x",
      STRATUM_FLOW_ID: "F",
      STRATUM_STEP_ID: "S",
      STRATUM_TASK_ID: "T",
    });
  });

  it("adds the names and prefixes STRATUM_AGENT_ENV lists, the reference's API keys included", () => {
    const env = taskEnvironment(
      {
        STRATUM_AGENT_ENV: " MY_TOOL ,TEAM_*,ANTHROPIC_API_KEY",
        MY_TOOL: "1",
        MY_TOOLS: "no",
        TEAM_A: "a",
        TEAM_B: "b",
        TEAMS: "no",
        ANTHROPIC_API_KEY: "sk",
      },
      ids,
    );
    expect(env).toMatchObject({ MY_TOOL: "1", TEAM_A: "a", TEAM_B: "b", ANTHROPIC_API_KEY: "sk" });
    expect(env.MY_TOOLS).toBeUndefined();
    expect(env.TEAMS).toBeUndefined();
  });

  it("never passes what opens the store, the page or the traces, even when listed or matched", () => {
    const server = {
      STRATUM_AGENT_ENV:
        "STRATUM_STORE,STRATUM_HOME,STRATUMC_UI_TOKEN,PGPASSWORD,OTEL_EXPORTER_OTLP_HEADERS,STRATUM*,P*,O*",
      STRATUM_STORE: "postgres://u:pw@h/db",
      STRATUM_HOME: "/srv/stratum",
      STRATUMC_UI_TOKEN: "t",
      STRATUMC_PROG: "stratum-mcp",
      PGPASSWORD: "pw",
      PGHOST: "h",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=x",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c",
      STRATUM_WORKSPACE_ROOT: "/w",
      PATH: "/bin",
    };
    const env = taskEnvironment(server, ids);
    for (const name of Object.keys(server)) {
      if (isProtectedEnvName(name)) expect(env[name], name).toBeUndefined();
    }
    // Matched by the listed prefixes and not protected: passed.
    expect(env).toMatchObject({ STRATUM_WORKSPACE_ROOT: "/w", STRATUM_AGENT_ENV: server.STRATUM_AGENT_ENV });
  });

  it("property: whatever the server has and the setting lists, no protected name gets through", () => {
    const name = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,12}$/);
    const protectedName = fc.constantFrom(
      "STRATUM_STORE",
      "STRATUM_HOME",
      "STRATUMC_UI_TOKEN",
      "PGPASSWORD",
      "PGSERVICEFILE",
      "OTEL_EXPORTER_OTLP_HEADERS",
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.oneof(name, protectedName), fc.string()),
        fc.array(
          fc.oneof(
            name,
            protectedName,
            name.map((n) => `${n}*`),
            fc.constant("*"),
          ),
        ),
        (server, listed) => {
          const env = taskEnvironment({ ...server, STRATUM_AGENT_ENV: listed.join(",") }, ids);
          for (const key of Object.keys(env)) expect(isProtectedEnvName(key), key).toBe(false);
          for (const key of BASE_ENV_NAMES) {
            if (server[key] !== undefined) expect(env[key]).toBe(server[key]);
          }
        },
      ),
    );
  });
});

describe("agentEnvSetting", () => {
  it("reads names and prefixes; warns about a bare *, bad names and protected entries", () => {
    const setting = agentEnvSetting({
      STRATUM_AGENT_ENV: "A,, B_* ,*,1BAD,has space,STRATUM_STORE,PG*,PGPASSWORD,OTEL_EXPORTER_OTLP_*",
    });
    expect(setting.names).toEqual(["A"]);
    expect(setting.prefixes).toEqual(["B_"]);
    expect(setting.warnings).toEqual([
      "STRATUM_AGENT_ENV: '*' is ignored: expected a variable name or a name prefix followed by '*'",
      "STRATUM_AGENT_ENV: '1BAD' is ignored: expected a variable name or a name prefix followed by '*'",
      "STRATUM_AGENT_ENV: 'has space' is ignored: expected a variable name or a name prefix followed by '*'",
      "STRATUM_AGENT_ENV: STRATUM_STORE is never passed to agents (it opens the flow store, the approval page or the traces)",
      "STRATUM_AGENT_ENV: PG* is ignored: its names open the flow store, the approval page or the traces",
      "STRATUM_AGENT_ENV: PGPASSWORD is never passed to agents (it opens the flow store, the approval page or the traces)",
      "STRATUM_AGENT_ENV: OTEL_EXPORTER_OTLP_* is ignored: its names open the flow store, the approval page or the traces",
    ]);
  });

  it("no setting: nothing added, no warning", () => {
    expect(agentEnvSetting({})).toEqual({ names: [], prefixes: [], warnings: [] });
  });
});

describe("each CLI gets its own login, and no other", () => {
  const server = {
    CLAUDE_CODE_OAUTH_TOKEN: "oauth",
    CLAUDE_CONFIG_DIR: "/c",
    CODEX_HOME: "/x",
    STRATUM_AGENT_COMMAND: undefined,
  };
  const commandEnv = (agent: string, env: Record<string, string | undefined>) => {
    const choice = agentCommand(agent, "/work", env);
    if (!choice.ok) throw new Error(choice.error);
    return choice.command.env;
  };

  it("claude: its OAuth token and configuration directory", () => {
    expect(commandEnv("claude", server)).toEqual({
      CLAUDE_CODE_OAUTH_TOKEN: "oauth",
      CLAUDE_CONFIG_DIR: "/c",
    });
  });

  it("codex: its home", () => {
    expect(commandEnv("codex", server)).toEqual({ CODEX_HOME: "/x" });
  });

  it("STRATUM_AGENT_COMMAND: neither (only the agent string)", () => {
    expect(commandEnv("claude", { ...server, STRATUM_AGENT_COMMAND: "/bin/agent" })).toEqual({
      STRATUM_AGENT: "claude",
    });
  });
});
