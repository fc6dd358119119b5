// `install` (docs/reference/runtime.md §22.1) in a temporary project with a temporary HOME: progress
// lines, the files written, idempotence, what existing files keep, old-format cleanup, preconditions.
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { EXECUTION_MODEL_BLOCK } from "../../install/claude-md";
import { HOOK_SCRIPTS } from "../../install/generated/hook-scripts";
import { SKILLS } from "../../install/generated/skills";
import { recordPath } from "../../install/record";
import { Sandbox, SCRIPTS } from "./harness";

let sb: Sandbox;
beforeEach(() => {
  sb = new Sandbox();
});
afterEach(() => sb.dispose());

const SKILL_NAMES = [
  "stratum-build",
  "stratum-debug",
  "stratum-feature",
  "stratum-learn",
  "stratum-migrate",
  "stratum-onboard",
  "stratum-plan",
  "stratum-refactor",
  "stratum-review",
  "stratum-speckit",
  "stratum-test",
];

function lines(
  scripts: string,
  mcp: string,
  claude: string,
  skills: string,
  settings: string[],
  final: string,
  written: { manifest: string; record: string } | null = null,
) {
  return [
    ...SCRIPTS.map((s) => `  .claude/hooks/${s}: ${scripts}`),
    `  .mcp.json: ${mcp}`,
    `    MCP server command: stratum-mcp (on PATH: ${sb.bin}/stratum-mcp)`,
    "    stratum-mcp is installed on PATH, not only in a node_modules/.bin, so the name works for every " +
      "teammate who installed stratumc the same way.",
    `  CLAUDE.md: ${claude}`,
    ...SKILL_NAMES.map((n) => `  ~/.claude/skills/${n}: ${skills}`),
    ...(written === null ? [] : [`  ~/.claude/skills/.stratum-skills.json: ${written.manifest}`]),
    ...settings,
    ...(written === null ? [] : [`  ${recordShown()}: ${written.record}`]),
    "",
    final,
    "",
  ].join("\n");
}

const DONE = "Done. Restart Claude Code so that it loads the Stratum MCP server.";
const NOTHING = "Nothing to change: Stratum is already configured.";
/** The install record as the progress lines name it (one per project, in ~/.stratum/installs). */
const recordShown = () =>
  `~/.stratum/installs/${relative(join(sb.home, ".stratum/installs"), recordPath(join(sb.home, ".stratum/installs"), realpathSync(sb.project)))}`;
const FIRST = () =>
  lines("installed", "created", "created", "installed", ["  .claude/settings.json: hooks registered"], DONE, {
    manifest: "skills manifest written (the skills uninstall removes)",
    record: "install record written (what uninstall gives back)",
  });
const AGAIN = () =>
  lines(
    "up to date",
    "stratum server already present",
    "execution model already present",
    "up to date",
    ["  .claude/settings.json: hooks already registered"],
    NOTHING,
  );

function ourSettings() {
  const entry = (script: string) => [
    {
      matcher: "",
      hooks: [{ type: "command", command: `bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/${script}` }],
    },
  ];
  return {
    SessionStart: entry("stratum-session-start.sh"),
    Stop: entry("stratum-session-stop.sh"),
    PostToolUseFailure: entry("stratum-post-tool-failure.sh"),
  };
}

/** Every file under the sandbox with its text and mode, to compare before and after. */
function snapshot(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      if (name.isDirectory()) walk(path);
      else files[path] = `${(statSync(path).mode & 0o777).toString(8)} ${readFileSync(path, "utf8")}`;
    }
  };
  walk(sb.root);
  return files;
}

describe("install in a fresh project", () => {
  test("prints one line per item and writes every file", async () => {
    const answer = await sb.cli(["install"]);
    expect(answer).toEqual({ code: 0, stdout: FIRST(), stderr: "" });
    expect(sb.read(".mcp.json")).toBe(
      '{\n  "mcpServers": {\n    "stratum": {\n      "command": "stratum-mcp"\n    }\n  }\n}\n',
    );
    expect(sb.read("CLAUDE.md")).toBe(EXECUTION_MODEL_BLOCK);
    expect(sb.json(".claude/settings.json")).toEqual({ hooks: ourSettings() });
    expect(sb.read(".claude/settings.json").endsWith("}\n")).toBe(true);
    expect(sb.exists(".claude/settings.local.json")).toBe(false);
    for (const { name, text } of HOOK_SCRIPTS) {
      const path = join(sb.project, ".claude/hooks", name);
      expect(readFileSync(path, "utf8")).toBe(text);
      expect(statSync(path).mode & 0o777).toBe(0o755);
    }
    for (const { name, text } of SKILLS)
      expect(readFileSync(join(sb.skillsDir, name, "SKILL.md"), "utf8")).toBe(text);
    expect(readFileSync(join(sb.skillsDir, ".stratum-skills.json"), "utf8")).toBe(
      `${JSON.stringify(SKILL_NAMES, null, 2)}\n`,
    );
  });

  test("a second install changes nothing", async () => {
    await sb.cli(["install"]);
    const before = snapshot();
    expect(await sb.cli(["install"])).toEqual({ code: 0, stdout: AGAIN(), stderr: "" });
    expect(snapshot()).toEqual(before);
  });

  test("stratum-mcp install does the same", async () => {
    expect(await sb.cli(["install"], "stratum-mcp")).toEqual({ code: 0, stdout: FIRST(), stderr: "" });
  });

  test("the block starts the CLAUDE.md block text of docs/reference/runtime.md §22.1", () => {
    expect(EXECUTION_MODEL_BLOCK.split("\n").slice(0, 4)).toEqual([
      "## Stratum Execution Model",
      "",
      "For any task that takes more than one step, run it through Stratum:",
      "1. Draft a `.stratum.yaml` spec for the task and keep it to yourself.",
    ]);
  });
});

describe("install keeps what is there", () => {
  test("other MCP servers and keys are kept", async () => {
    sb.write(
      ".mcp.json",
      JSON.stringify({ mcpServers: { github: { command: "gh-mcp", args: ["x"] } }, extra: 1 }),
    );
    const answer = await sb.cli(["install"]);
    expect(answer.stdout).toContain("  .mcp.json: stratum server added\n");
    expect(sb.json(".mcp.json")).toEqual({
      mcpServers: { github: { command: "gh-mcp", args: ["x"] }, stratum: { command: "stratum-mcp" } },
      extra: 1,
    });
  });

  test("an existing stratum entry is left as it is", async () => {
    const text = JSON.stringify({ mcpServers: { stratum: { command: "/opt/stratum-mcp" } } });
    sb.write(".mcp.json", text);
    expect((await sb.cli(["install"])).stdout).toContain("  .mcp.json: stratum server already present\n");
    expect(sb.read(".mcp.json")).toBe(text);
  });

  test("CLAUDE.md: trailing whitespace removed, a blank line, the block", async () => {
    sb.write("CLAUDE.md", "# My project\n\nRules.\n\n\n  \n");
    expect((await sb.cli(["install"])).stdout).toContain("  CLAUDE.md: execution model added\n");
    expect(sb.read("CLAUDE.md")).toBe(`# My project\n\nRules.\n\n${EXECUTION_MODEL_BLOCK}`);
  });

  test("CLAUDE.md with CRLF line ends gets the block with CRLF", async () => {
    sb.write("CLAUDE.md", "# Win\r\n");
    await sb.cli(["install"]);
    expect(sb.read("CLAUDE.md")).toBe(`# Win\r\n\r\n${EXECUTION_MODEL_BLOCK.replaceAll("\n", "\r\n")}`);
  });

  test("CLAUDE.md that already has the marker line is not touched", async () => {
    const text = "# P\n\n## Stratum Execution Model\n\nOur own words.\n";
    sb.write("CLAUDE.md", text);
    expect((await sb.cli(["install"])).stdout).toContain("  CLAUDE.md: execution model already present\n");
    expect(sb.read("CLAUDE.md")).toBe(text);
  });

  test("other settings and other hooks are kept; ours are appended", async () => {
    const other = { matcher: "Bash", hooks: [{ type: "command", command: "echo hi" }] };
    sb.write(
      ".claude/settings.json",
      JSON.stringify({
        permissions: { allow: ["Bash(ls)"] },
        hooks: { SessionStart: [other], PreToolUse: [other] },
      }),
    );
    await sb.cli(["install"]);
    const ours = ourSettings();
    expect(sb.json(".claude/settings.json")).toEqual({
      permissions: { allow: ["Bash(ls)"] },
      hooks: {
        SessionStart: [other, ...ours.SessionStart],
        PreToolUse: [other],
        Stop: ours.Stop,
        PostToolUseFailure: ours.PostToolUseFailure,
      },
    });
  });
});

describe("old formats", () => {
  test("old copies are updated; relative commands and entries without `hooks` are cleaned up", async () => {
    for (const script of SCRIPTS) sb.write(`.claude/hooks/${script}`, "#!/bin/bash\n");
    const relative = (script: string) => ({ type: "command", command: `bash .claude/hooks/${script}` });
    const mixed = {
      matcher: "",
      hooks: [relative("stratum-session-start.sh"), { type: "command", command: "echo keep" }],
    };
    sb.write(
      ".claude/settings.json",
      JSON.stringify({
        hooks: {
          SessionStart: [mixed],
          Stop: [{ matcher: "", hooks: [relative("stratum-session-stop.sh")] }],
          PostToolUseFailure: [relative("stratum-post-tool-failure.sh")],
        },
      }),
    );
    const answer = await sb.cli(["install"]);
    expect(answer.stdout).toContain(
      [
        "  .claude/hooks/stratum-session-start.sh: updated",
        "  .claude/hooks/stratum-session-stop.sh: updated",
        "  .claude/hooks/stratum-post-tool-failure.sh: updated",
        "",
      ].join("\n"),
    );
    expect(answer.stdout).toContain("  .claude/settings.json: hooks registered\n");
    for (const { name, text } of HOOK_SCRIPTS) expect(sb.read(`.claude/hooks/${name}`)).toBe(text);
    const ours = ourSettings();
    expect(sb.json(".claude/settings.json")).toEqual({
      hooks: {
        SessionStart: [
          { matcher: "", hooks: [{ type: "command", command: "echo keep" }] },
          ...ours.SessionStart,
        ],
        Stop: ours.Stop,
        PostToolUseFailure: ours.PostToolUseFailure,
      },
    });
  });

  test("a command for our script at an absolute path (earlier versions, the reference) is replaced", async () => {
    const stale = {
      matcher: "",
      hooks: [{ type: "command", command: "bash /old/home/.stratum/hooks/stratum-session-stop.sh" }],
    };
    sb.write(".claude/settings.json", JSON.stringify({ hooks: { Stop: [stale] } }));
    await sb.cli(["install"]);
    expect((sb.json(".claude/settings.json") as { hooks: unknown }).hooks).toEqual(ourSettings());
  });
});

describe("hook scripts and skills on a later install", () => {
  test("a changed script is updated, a non-executable one made executable", async () => {
    await sb.cli(["install"]);
    const hooks = join(sb.project, ".claude/hooks");
    writeFileSync(join(hooks, "stratum-session-stop.sh"), "#!/bin/bash\n");
    chmodSync(join(hooks, "stratum-post-tool-failure.sh"), 0o644);
    const answer = await sb.cli(["install"]);
    expect(answer.stdout.split("\n").slice(0, 3)).toEqual([
      "  .claude/hooks/stratum-session-start.sh: up to date",
      "  .claude/hooks/stratum-session-stop.sh: updated",
      "  .claude/hooks/stratum-post-tool-failure.sh: made executable",
    ]);
    expect(answer.stdout.endsWith(`\n${DONE}\n`)).toBe(true);
    expect(statSync(join(hooks, "stratum-post-tool-failure.sh")).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(hooks, "stratum-session-stop.sh"), "utf8")).toBe(
      HOOK_SCRIPTS.find((h) => h.name === "stratum-session-stop.sh")?.text,
    );
  });

  test("a changed skill is updated; a skill no longer bundled is removed; odd manifest names are ignored", async () => {
    await sb.cli(["install"]);
    writeFileSync(join(sb.skillsDir, "stratum-debug", "SKILL.md"), "old\n");
    mkdirSync(join(sb.skillsDir, "stratum-old"));
    writeFileSync(join(sb.skillsDir, "stratum-old", "SKILL.md"), "old\n");
    mkdirSync(join(sb.root, "victim"));
    writeFileSync(
      join(sb.skillsDir, ".stratum-skills.json"),
      JSON.stringify(["stratum-debug", "stratum-old", "../../victim", 7]),
    );
    const answer = await sb.cli(["install"]);
    expect(answer.stdout).toContain("  ~/.claude/skills/stratum-debug: updated\n");
    expect(answer.stdout).toContain("  ~/.claude/skills/stratum-old: removed (no longer bundled)\n");
    expect(answer.stdout).not.toContain("victim");
    expect(statSync(join(sb.root, "victim")).isDirectory()).toBe(true);
    expect(() => statSync(join(sb.skillsDir, "stratum-old"))).toThrow();
    expect(JSON.parse(readFileSync(join(sb.skillsDir, ".stratum-skills.json"), "utf8"))).toEqual(SKILL_NAMES);
  });
});

describe("where", () => {
  test("the project root is the nearest ancestor with .git or CLAUDE.md", async () => {
    mkdirSync(join(sb.project, "src", "deep"), { recursive: true });
    sb.cwd = join(sb.project, "src", "deep");
    await sb.cli(["install"]);
    expect(sb.exists(".mcp.json")).toBe(true);
    expect(sb.exists("src/deep/.mcp.json")).toBe(false);

    sb.write("sub/CLAUDE.md", "# Sub\n");
    mkdirSync(join(sb.project, "sub", "x"));
    sb.cwd = join(sb.project, "sub", "x");
    expect((await sb.cli(["install"])).stdout).toContain("  CLAUDE.md: execution model added\n");
    expect(sb.exists("sub/.mcp.json")).toBe(true);
  });

  test("without .git or CLAUDE.md anywhere, the current directory", async () => {
    const plain = join(sb.root, "plain");
    mkdirSync(plain);
    sb.cwd = plain;
    await sb.cli(["install"]);
    expect(statSync(join(plain, ".mcp.json")).isFile()).toBe(true);
  });

  test("STRATUM_HOME holds the install record; no path of this machine reaches settings.json", async () => {
    const stratumHome = join(sb.root, "my stratum");
    sb.env = { STRATUM_HOME: stratumHome };
    await sb.cli(["install"]);
    expect(readdirSync(join(stratumHome, "installs"))).toHaveLength(1);
    expect(sb.json(".claude/settings.json")).toEqual({ hooks: ourSettings() });
    expect(sb.read(".claude/settings.json")).not.toContain(sb.root);
    expect(sb.read(".mcp.json")).not.toContain(sb.root);
  });

  test("when the install record cannot be written: exit 1 and nothing is changed", async () => {
    writeFileSync(join(sb.root, "file"), "");
    sb.env = { STRATUM_HOME: join(sb.root, "file") };
    const answer = await sb.cli(["install"]);
    expect(answer.code).toBe(1);
    expect(answer.stdout).toBe("");
    expect(answer.stderr).toMatch(
      new RegExp(`^stratumc: cannot write ${sb.root}/file/installs/[0-9a-f]{32}\\.json: ENOTDIR: .*\\n$`),
    );
    expect(readdirSync(sb.project)).toEqual([".git"]);
    expect(readdirSync(sb.home)).toEqual([]);
  });
});
