// `uninstall [--keep-skills]` (docs/reference/runtime.md §22.2): progress lines, what is removed, what is restored
// (CLAUDE.md byte for byte up to trailing whitespace, other servers, other hooks), files left alone.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { recordPath } from "../../install/record";
import { Sandbox, SCRIPTS } from "./harness";

let sb: Sandbox;
beforeEach(() => {
  sb = new Sandbox();
});
afterEach(() => sb.dispose());

const SKILL_NAMES = readdirSync(join(import.meta.dirname, "../../assets/skills")).sort();
const DONE = "Done. Restart Claude Code so that it unloads the Stratum MCP server.";
const NOTHING = "Nothing to remove: Stratum is not configured here.";
/** The install record as the progress lines name it. */
const recordShown = () =>
  `~/.stratum/installs/${relative(join(sb.home, ".stratum/installs"), recordPath(join(sb.home, ".stratum/installs"), realpathSync(sb.project)))}`;

function lines(head: string[], skills: string[], scripts: string, settings: string, final: string): string {
  return [
    ...head,
    ...skills,
    ...SCRIPTS.map((s) => `  .claude/hooks/${s}: ${scripts}`),
    `  .claude/settings.json: ${settings}`,
    `  ${recordShown()}: install record removed`,
    "",
    final,
    "",
  ].join("\n");
}

describe("uninstall after install", () => {
  test("removes everything install wrote in a fresh project", async () => {
    await sb.cli(["install"]);
    const answer = await sb.cli(["uninstall"]);
    const expected = lines(
      ["  .mcp.json: stratum server removed", "  CLAUDE.md: execution model removed"],
      SKILL_NAMES.map((n) => `  ~/.claude/skills/${n}: removed`),
      "removed",
      "hook entries removed",
      DONE,
    );
    expect(answer).toEqual({ code: 0, stdout: expected, stderr: "" });
    // Everything install created is gone, folders included.
    expect(readdirSync(sb.project)).toEqual([".git"]);
    expect(readdirSync(sb.home)).toEqual([".stratum"]);
    expect(readdirSync(join(sb.home, ".stratum/installs"))).toEqual([]);
  });

  test("a second uninstall has nothing to remove, and names nothing", async () => {
    await sb.cli(["install"]);
    await sb.cli(["uninstall"]);
    const expected = `\n${NOTHING}\n`;
    expect(await sb.cli(["uninstall"], "stratum-mcp")).toEqual({ code: 0, stdout: expected, stderr: "" });
  });

  test("restores CLAUDE.md, other servers, other settings and hooks", async () => {
    const claude = "# Project\n\nUse tabs.\n";
    const mcp = { mcpServers: { github: { command: "gh-mcp" } } };
    const other = { matcher: "", hooks: [{ type: "command", command: "echo start" }] };
    const settings = { model: "opus", hooks: { SessionStart: [other] } };
    sb.write("CLAUDE.md", claude);
    sb.write(".mcp.json", JSON.stringify(mcp));
    sb.write(".claude/settings.json", JSON.stringify(settings));
    await sb.cli(["install"]);
    await sb.cli(["uninstall"]);
    expect(sb.read("CLAUDE.md")).toBe(claude);
    expect(sb.json(".mcp.json")).toEqual(mcp);
    expect(sb.json(".claude/settings.json")).toEqual(settings);
  });

  test("--keep-skills keeps the skills but deletes the manifest", async () => {
    await sb.cli(["install"]);
    const answer = await sb.cli(["uninstall", "--keep-skills"]);
    expect(answer.stdout).toContain(
      "  CLAUDE.md: execution model removed\n  ~/.claude/skills: kept (--keep-skills)\n",
    );
    expect(answer.stdout).not.toContain("~/.claude/skills/");
    expect(readdirSync(sb.skillsDir).sort()).toEqual(SKILL_NAMES);
    expect(existsSync(join(sb.skillsDir, ".stratum-skills.json"))).toBe(false);
  });

  test("skills named in the manifest are removed too", async () => {
    await sb.cli(["install"]);
    sb.write("../home/.claude/skills/stratum-gone/SKILL.md", "x\n");
    sb.write("../home/.claude/skills/.stratum-skills.json", JSON.stringify(["stratum-gone"]));
    const answer = await sb.cli(["uninstall"]);
    expect(answer.stdout).toContain("  ~/.claude/skills/stratum-gone: removed\n");
    expect(existsSync(sb.skillsDir)).toBe(false);
  });
});

describe("files install did not write", () => {
  test("CLAUDE.md without the block is left alone", async () => {
    sb.write("CLAUDE.md", "# Mine  \n\n");
    const answer = await sb.cli(["uninstall"]);
    expect(answer.stdout.split("\n").slice(0, 1)).toEqual(["  CLAUDE.md: execution model not present"]);
    expect(sb.read("CLAUDE.md")).toBe("# Mine  \n\n");
    expect(answer.stdout.endsWith(`\n${NOTHING}\n`)).toBe(true);
  });

  test("CLAUDE.md: everything from the first marker line goes, the rest ends with one newline", async () => {
    sb.write("CLAUDE.md", "intro   \n\n\n## Stratum Execution Model\nold words\n## Later\nmore\n");
    await sb.cli(["uninstall"]);
    expect(sb.read("CLAUDE.md")).toBe("intro\n");
  });

  test("a .mcp.json without our server", async () => {
    const text = '{"mcpServers": {"other": {"command": "x"}}}';
    sb.write(".mcp.json", text);
    expect((await sb.cli(["uninstall"])).stdout).toContain("  .mcp.json: stratum server not present\n");
    expect(sb.read(".mcp.json")).toBe(text);
  });

  test("other top-level keys keep .mcp.json when the last server goes", async () => {
    sb.write(".mcp.json", JSON.stringify({ mcpServers: { stratum: { command: "stratum-mcp" } }, note: "x" }));
    await sb.cli(["uninstall"]);
    expect(sb.json(".mcp.json")).toEqual({ mcpServers: {}, note: "x" });
  });

  test("the reference's legacy .claude/mcp.json is cleaned", async () => {
    sb.write(".claude/mcp.json", JSON.stringify({ mcpServers: { stratum: { command: "stratum-mcp" } } }));
    const answer = await sb.cli(["uninstall"]);
    expect(answer.stdout.split("\n").slice(0, 1)).toEqual(["  .claude/mcp.json: stratum server removed"]);
    expect(sb.exists(".claude/mcp.json")).toBe(false);
    expect(answer.stdout.endsWith(`\n${DONE}\n`)).toBe(true);
  });

  test("old-format entries, relative commands and project copies are removed; other hooks stay", async () => {
    for (const script of SCRIPTS) sb.write(`.claude/hooks/${script}`, "#!/bin/bash\n");
    const keep = { matcher: "", hooks: [{ type: "command", command: "echo keep" }] };
    sb.write(
      ".claude/settings.json",
      JSON.stringify({
        hooks: {
          SessionStart: [{ type: "command", command: "bash .claude/hooks/stratum-session-start.sh" }, keep],
          Stop: [
            {
              matcher: "",
              hooks: [{ type: "command", command: "bash .claude/hooks/stratum-session-stop.sh" }],
            },
          ],
          PreToolUse: [keep],
        },
      }),
    );
    const answer = await sb.cli(["uninstall"]);
    expect(answer.stdout).toContain(
      [
        ...SCRIPTS.map((s) => `  .claude/hooks/${s}: removed`),
        "  .claude/settings.json: hook entries removed",
        "",
      ].join("\n"),
    );
    expect(sb.json(".claude/settings.json")).toEqual({ hooks: { SessionStart: [keep], PreToolUse: [keep] } });
    expect(statSync(join(sb.project, ".claude")).isDirectory()).toBe(true);
  });

  test("settings without our entries", async () => {
    const text = JSON.stringify({
      hooks: { Stop: [{ matcher: "", hooks: [{ type: "command", command: "echo" }] }] },
    });
    sb.write(".claude/settings.json", text);
    expect((await sb.cli(["uninstall"])).stdout).toContain("  .claude/settings.json: no hook entries\n");
    expect(readFileSync(join(sb.project, ".claude/settings.json"), "utf8")).toBe(text);
  });
});
