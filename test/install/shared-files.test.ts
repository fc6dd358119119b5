// No path of this machine in shared files ($CLAUDE_PROJECT_DIR commands in settings.json,
// personal entries out of it), the MCP registration with and without stratum-mcp on PATH, invalid
// JSON never overwritten (nothing changed anywhere), uninstall giving back the exact bytes.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { hookRegistration, runsScript } from "../../install/settings-hooks";
import { Sandbox } from "./harness";

let sb: Sandbox;
beforeEach(() => {
  sb = new Sandbox();
});
afterEach(() => sb.dispose());

/** Every file under the sandbox (bin aside) with its bytes, mode and mtime. */
function snapshot(root = sb.root): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        files[`${relative(root, path)}/`] = "";
        walk(path);
      } else {
        const stat = statSync(path);
        files[relative(root, path)] =
          `${(stat.mode & 0o7777).toString(8)} ${stat.mtimeMs} ${readFileSync(path).toString("base64")}`;
      }
    }
  };
  walk(root);
  return files;
}

/** Sets every file's mtime in the past, so that a rewrite with the same bytes would show. */
function age(root = sb.root): void {
  for (const path of Object.keys(snapshot(root)))
    if (!path.endsWith("/")) utimesSync(join(root, path), 1_000_000, 1_000_000);
}

describe("shared files name no path of this machine", () => {
  test("settings.json runs the project's copies through $CLAUDE_PROJECT_DIR", async () => {
    await sb.cli(["install"]);
    const settings = sb.read(".claude/settings.json");
    expect(settings).not.toContain(sb.root);
    expect(settings).not.toContain(sb.home);
    const commands = [...settings.matchAll(/"command": "(.*)"/g)].map((m) => JSON.parse(`"${m[1]}"`));
    expect(commands).toEqual([
      'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/stratum-session-start.sh',
      'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/stratum-session-stop.sh',
      'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/stratum-post-tool-failure.sh',
    ]);
  });

  test("absolute entries of ours move out of settings.json and settings.local.json; others stay", async () => {
    const abs = (script: string) => ({
      matcher: "",
      hooks: [{ type: "command", command: `bash ${sb.home}/.stratum/hooks/${script}` }],
    });
    const mine = { matcher: "Bash", hooks: [{ type: "command", command: `${sb.home}/bin/lint.sh` }] };
    sb.write(".claude/settings.json", JSON.stringify({ hooks: { Stop: [abs("stratum-session-stop.sh")] } }));
    sb.write(
      ".claude/settings.local.json",
      JSON.stringify({ hooks: { SessionStart: [abs("stratum-session-start.sh"), mine] } }),
    );
    const answer = await sb.cli(["install"]);
    expect(answer.stdout).toContain(
      "  .claude/settings.json: hooks registered\n  .claude/settings.local.json: old hook entries removed\n",
    );
    expect(sb.read(".claude/settings.json")).not.toContain(sb.root);
    expect(sb.json(".claude/settings.local.json")).toEqual({ hooks: { SessionStart: [mine] } });
  });

  test("the rule: a script in the project is shared, anything else personal", () => {
    expect(hookRegistration("/p/.claude/hooks/a.sh", "/p")).toEqual({
      file: ".claude/settings.json",
      command: 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh',
    });
    expect(hookRegistration("/p/my hooks/a.sh", "/p").command).toBe(
      `bash "$CLAUDE_PROJECT_DIR"/'my hooks/a.sh'`,
    );
    expect(hookRegistration("/home/u/.stratum/hooks/a.sh", "/p")).toEqual({
      file: ".claude/settings.local.json",
      command: "bash /home/u/.stratum/hooks/a.sh",
    });
    expect(hookRegistration("/pp/a.sh", "/p").file).toBe(".claude/settings.local.json");
  });

  test("every form of our command is recognised; other commands are not", () => {
    const s = "stratum-session-stop.sh";
    for (const command of [
      `bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/${s}`,
      `bash "\${CLAUDE_PROJECT_DIR}/.claude/hooks/${s}"`,
      `"$CLAUDE_PROJECT_DIR"/.claude/hooks/${s}`,
      `bash .claude/hooks/${s}`,
      `bash '/my home/.stratum/hooks/${s}'`,
      `bash /h/.stratum/hooks/${s}`,
    ])
      expect(runsScript(command, s), command).toBe(true);
    for (const command of [
      `/usr/bin/env bash /h/${s}`,
      `bash /h/${s} --flag`,
      `bash other/.claude/hooks/${s}`,
      `bash "/h/${s}`,
      `bash /h/stratum-session-start.sh`,
    ])
      expect(runsScript(command, s), command).toBe(false);
  });
});

describe("the MCP registration", () => {
  test("stratum-mcp on PATH: the shared .mcp.json names it, and the report says where it was found", async () => {
    const answer = await sb.cli(["install"]);
    expect(answer.stdout).toContain(
      `  .mcp.json: created\n    MCP server command: stratum-mcp (on PATH: ${sb.bin}/stratum-mcp)\n`,
    );
    expect(sb.json(".mcp.json")).toEqual({ mcpServers: { stratum: { command: "stratum-mcp" } } });
    expect(() => statSync(sb.claudeJson)).toThrow();
  });

  test("stratumc in package.json: npx --no-install stratum-mcp in .mcp.json, before a stratum-mcp on PATH", async () => {
    sb.write("package.json", JSON.stringify({ devDependencies: { stratumc: "^0.1.0" } }));
    const answer = await sb.cli(["install"]);
    expect(answer.stdout).toContain(
      [
        "  .mcp.json: created",
        "    MCP server command: npx --no-install stratum-mcp",
        "    stratumc is in the devDependencies of package.json, so every teammate who ran npm install has " +
          "stratum-mcp in node_modules/.bin: npx starts it from there wherever .mcp.json is read, without " +
          "stratum-mcp on PATH.",
        // This sandbox never ran npm install.
        "    node_modules/.bin/stratum-mcp is not there yet: run npm install before you start Claude Code.",
        "",
      ].join("\n"),
    );
    expect(sb.json(".mcp.json")).toEqual({
      mcpServers: { stratum: { command: "npx", args: ["--no-install", "stratum-mcp"] } },
    });
    sb.write("node_modules/.bin/stratum-mcp", "");
    const again = await sb.cli(["install"]);
    expect(again.stdout).toContain("  .mcp.json: stratum server already present\n");
    expect(again.stdout).not.toContain("not there yet");
  });

  test("a package.json without stratumc, or one that is not JSON, changes nothing of the choice", async () => {
    for (const text of [JSON.stringify({ dependencies: { other: "1" } }), "{ not json", "[]"]) {
      sb.write("package.json", text);
      const answer = await sb.cli(["install"]);
      expect(answer.stdout).toContain(`MCP server command: stratum-mcp (on PATH: ${sb.bin}/stratum-mcp)`);
      await sb.cli(["uninstall"]);
    }
  });

  test("a stratum-mcp only in a node_modules/.bin on PATH (npx) is not on PATH for Claude Code", async () => {
    const npmBin = join(sb.root, "elsewhere/node_modules/.bin");
    mkdirSync(npmBin, { recursive: true });
    writeFileSync(join(npmBin, "stratum-mcp"), "#!/bin/sh\n", { mode: 0o755 });
    sb.env = { PATH: npmBin };
    const answer = await sb.cli(["install"]);
    expect(answer.stdout).toContain("  ~/.claude.json: stratum server added (local scope of this project)\n");
    expect(answer.stdout).toContain(
      "    stratum-mcp is on PATH only through node_modules/.bin (as npx runs it), and stratumc is not a " +
        "dependency in package.json, so this command works on this machine only",
    );
    expect(sb.exists(".mcp.json")).toBe(false);
    await sb.cli(["uninstall"]);
    // A global stratum-mcp later on PATH is the one named.
    sb.env = { PATH: `${npmBin}:${sb.bin}` };
    expect((await sb.cli(["install"])).stdout).toContain(
      `MCP server command: stratum-mcp (on PATH: ${sb.bin}/stratum-mcp)`,
    );
  });

  test("an entry install wrote is brought to the chosen command; one the user wrote stays", async () => {
    const npx = { command: "npx", args: ["--no-install", "stratum-mcp"] };
    sb.write(".mcp.json", JSON.stringify({ mcpServers: { stratum: npx } }));
    const answer = await sb.cli(["install"]);
    expect(answer.stdout).toContain(
      "  .mcp.json: stratum server command updated (was npx --no-install stratum-mcp)\n",
    );
    expect(sb.json(".mcp.json")).toEqual({ mcpServers: { stratum: { command: "stratum-mcp" } } });
    await sb.cli(["uninstall"]);
    expect(sb.json(".mcp.json")).toEqual({ mcpServers: { stratum: npx } });
    const custom = { command: "stratum-mcp", env: { STRATUM_HOME: "/srv/flows" } };
    sb.write(".mcp.json", JSON.stringify({ mcpServers: { stratum: custom } }));
    expect((await sb.cli(["install"])).stdout).toContain("  .mcp.json: stratum server already present\n");
    expect(sb.json(".mcp.json")).toEqual({ mcpServers: { stratum: custom } });
  });

  test("a stratum-mcp that is not executable, or a folder, does not count", async () => {
    rmSync(join(sb.bin, "stratum-mcp"));
    writeFileSync(join(sb.bin, "stratum-mcp"), "x", { mode: 0o644 });
    const answer = await sb.cli(["install"]);
    expect(answer.stdout).toContain("stratum-mcp is not on PATH");
    expect(sb.exists(".mcp.json")).toBe(false);
  });

  test("not on PATH: node and our script in the local scope of ~/.claude.json, never in .mcp.json", async () => {
    sb.env = { PATH: join(sb.root, "empty") };
    const other = { numStartups: 3, projects: { "/elsewhere": { allowedTools: [] } } };
    writeFileSync(sb.claudeJson, JSON.stringify(other), { mode: 0o600 });
    const answer = await sb.cli(["install"]);
    const script = join(import.meta.dirname, "../../bin/stratum-mcp.cjs");
    expect(answer.stdout).toContain(
      [
        "  ~/.claude.json: stratum server added (local scope of this project)",
        `    MCP server command: ${process.execPath} ${script}`,
        "    stratum-mcp is not on PATH, so this command works on this machine only: it is registered " +
          "for you alone (~/.claude.json), not in the shared .mcp.json. To register it for the whole team, " +
          "add stratumc to the project's devDependencies (or put stratum-mcp on PATH) and run install again.",
        "",
      ].join("\n"),
    );
    expect(answer.stdout).not.toContain(".mcp.json: ");
    expect(sb.exists(".mcp.json")).toBe(false);
    expect(JSON.parse(readFileSync(sb.claudeJson, "utf8"))).toEqual({
      ...other,
      projects: {
        ...other.projects,
        [sb.project]: {
          mcpServers: {
            stratum: {
              type: "stdio",
              command: process.execPath,
              args: [script],
              env: { MALLOC_ARENA_MAX: "2" },
            },
          },
        },
      },
    });
    expect(statSync(sb.claudeJson).mode & 0o777).toBe(0o600); // Claude Code's file stays private
    const again = await sb.cli(["install"]);
    expect(again.stdout).toContain(
      "  ~/.claude.json: stratum server already present (local scope of this project)\n",
    );
    expect(again.stdout).toMatch(/\nNothing to change/);
    const removed = await sb.cli(["uninstall"]);
    expect(removed.stdout).toContain(
      "  ~/.claude.json: stratum server removed (local scope of this project)\n",
    );
    expect(readFileSync(sb.claudeJson, "utf8")).toBe(JSON.stringify(other));
  });

  test("Claude Code rewrote ~/.claude.json since install: only our entry goes", async () => {
    sb.env = { PATH: "" };
    await sb.cli(["install"]);
    const config = JSON.parse(readFileSync(sb.claudeJson, "utf8"));
    config.numStartups = 9;
    config.projects[sb.project].allowedTools = ["Bash"];
    writeFileSync(sb.claudeJson, JSON.stringify(config));
    await sb.cli(["uninstall"]);
    expect(JSON.parse(readFileSync(sb.claudeJson, "utf8"))).toEqual({
      numStartups: 9,
      projects: { [sb.project]: { mcpServers: {}, allowedTools: ["Bash"] } },
    });
  });
});

describe("invalid JSON is never overwritten", () => {
  const cases: [string, string, string][] = [
    [".mcp.json", '{\n  "mcpServers": {},\n}\n', "line 3, column 1"],
    [".claude/settings.json", '{"permissions": {"allow": ["Bash"]},', "line 1, column 37"],
    [".claude/settings.local.json", "", "line 1, column 1"],
    ["~/.claude.json", '{"projects": {"/x": {]}}', "line 1, column 22"],
  ];
  for (const [file, text, where] of cases)
    test(`install: ${file || "(empty)"} → error naming it and the place, nothing changed`, async () => {
      if (file === "~/.claude.json") {
        sb.env = { PATH: "" };
        writeFileSync(sb.claudeJson, text);
      } else sb.write(file, text);
      sb.write("CLAUDE.md", "# Mine\n");
      age();
      const before = snapshot();
      const answer = await sb.cli(["install"]);
      expect(answer.code).toBe(1);
      expect(answer.stdout).toBe("");
      expect(answer.stderr).toMatch(
        new RegExp(
          `^stratumc: ${file.replaceAll(".", "\\.")} is not valid JSON: .* at ${where}\\. Nothing was changed; fix or move the file and run the command again\\.\\n$`,
        ),
      );
      expect(snapshot()).toEqual(before);
    });

  test("a JSON file that is not an object, or whose mcpServers is not one, is an error too", async () => {
    sb.write(".mcp.json", '{"mcpServers": ["x"]}');
    const answer = await sb.cli(["install"]);
    expect(answer).toMatchObject({ code: 1, stdout: "" });
    expect(answer.stderr).toContain(
      "stratumc: .mcp.json: mcpServers is an array, expected an object (server name → server). Nothing was changed",
    );
    sb.write(".mcp.json", "[1, 2]");
    expect((await sb.cli(["install"])).stderr).toBe(
      "stratumc: .mcp.json does not hold a JSON object at the top. Nothing was changed; fix or move the file and run the command again.\n",
    );
  });

  test("uninstall: an invalid settings file stops it before anything is removed", async () => {
    await sb.cli(["install"]);
    sb.write(".claude/settings.local.json", "{ broken");
    age();
    const before = snapshot();
    const answer = await sb.cli(["uninstall"]);
    expect(answer.code).toBe(1);
    expect(answer.stderr).toMatch(
      /^stratumc: \.claude\/settings\.local\.json is not valid JSON: .* at line 1, column 3\./,
    );
    expect(snapshot()).toEqual(before);
  });
});

describe("uninstall gives back exactly what was there", () => {
  test("pre-existing files get their bytes and modes back; files and folders install created go", async () => {
    sb.write(".mcp.json", '{"mcpServers":{"gh":{"command":"gh"}}}'); // compact: install reformats it
    sb.write(".claude/settings.json", '{\r\n\t"model": "opus"\r\n}');
    sb.write("CLAUDE.md", "# Rules  \n\n\n");
    sb.write(".claude/hooks/stratum-session-stop.sh", "#!/bin/bash\necho mine\n");
    sb.write("../home/.claude/skills/stratum-debug/SKILL.md", "my own debug skill\n");
    age();
    const before = snapshot();
    await sb.cli(["install"]);
    expect(sb.json(".mcp.json")).toEqual({
      mcpServers: { gh: { command: "gh" }, stratum: { command: "stratum-mcp" } },
    });
    const answer = await sb.cli(["uninstall"]);
    expect(answer.stdout).toContain("  ~/.claude/skills/stratum-debug: restored\n");
    const after = snapshot();
    const strip = (s: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(s)
          .filter(([k]) => !k.startsWith("home/.stratum"))
          .map(([k, v]) => [k, v.replace(/ [0-9.]+ /, " ")]),
      );
    expect(strip(after)).toEqual(strip(before));
  });

  test("a file changed since install is undone entry by entry, keeping the change", async () => {
    sb.write(".mcp.json", '{"mcpServers":{"gh":{"command":"gh"}}}');
    await sb.cli(["install"]);
    const config = sb.json(".mcp.json") as { mcpServers: Record<string, unknown> };
    config.mcpServers.new = { command: "new" };
    sb.write(".mcp.json", JSON.stringify(config));
    await sb.cli(["uninstall"]);
    expect(sb.json(".mcp.json")).toEqual({ mcpServers: { gh: { command: "gh" }, new: { command: "new" } } });
  });

  test("install twice, then uninstall: the first install's originals come back", async () => {
    sb.write("CLAUDE.md", "# One\n");
    await sb.cli(["install"]);
    await sb.cli(["install"]);
    await sb.cli(["uninstall"]);
    expect(sb.read("CLAUDE.md")).toBe("# One\n");
    expect(readdirSync(sb.project).sort()).toEqual([".git", "CLAUDE.md"]);
  });

  test("uninstall --keep-skills keeps every skill, removes the rest exactly", async () => {
    sb.write(".claude/settings.json", '{"model":"opus"}');
    await sb.cli(["install"]);
    const answer = await sb.cli(["uninstall", "--keep-skills"]);
    expect(answer.code).toBe(0);
    expect(readdirSync(sb.skillsDir)).toHaveLength(11);
    expect(sb.read(".claude/settings.json")).toBe('{"model":"opus"}');
    expect(sb.exists(".claude/hooks")).toBe(false);
  });

  test("property: for any valid settings and .mcp.json, install then uninstall gives back the bytes", async () => {
    const key = fc.string({ maxLength: 6 });
    const leaf = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 8 }));
    const value = fc.letrec((tie) => ({
      any: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("any"), { maxLength: 3 }),
        fc.dictionary(key, tie("any"), { maxKeys: 3 }),
      ),
    })).any;
    const hook = fc.record({
      matcher: fc.string({ maxLength: 4 }),
      hooks: fc.array(fc.record({ type: fc.constant("command"), command: fc.string({ maxLength: 12 }) }), {
        maxLength: 2,
      }),
    });
    const settings = fc.record(
      {
        hooks: fc.dictionary(
          fc.constantFrom("SessionStart", "Stop", "PreToolUse"),
          fc.array(hook, { maxLength: 2 }),
          {
            maxKeys: 3,
          },
        ),
        permissions: value,
        other: value,
      },
      { requiredKeys: [] },
    );
    const mcp = fc.record(
      { mcpServers: fc.dictionary(fc.constantFrom("gh", "db", "x"), value, { maxKeys: 2 }), other: value },
      { requiredKeys: [] },
    );
    const layout = fc.constantFrom<[number | undefined, string]>(
      [undefined, ""],
      [2, "\n"],
      ["\t" as never, ""],
      [4, "\r\n"],
    );
    const file = <T>(arb: fc.Arbitrary<T>) =>
      fc.option(
        fc.tuple(arb, layout).map(([v, [indent, end]]) => `${JSON.stringify(v, null, indent)}${end}`),
        { nil: null },
      );
    await fc.assert(
      fc.asyncProperty(file(settings), file(settings), file(mcp), async (shared, local, servers) => {
        const one = new Sandbox();
        try {
          if (shared !== null) one.write(".claude/settings.json", shared);
          if (local !== null) one.write(".claude/settings.local.json", local);
          if (servers !== null) one.write(".mcp.json", servers);
          const before = snapshot(one.project);
          expect((await one.cli(["install"])).code).toBe(0);
          expect((await one.cli(["uninstall"])).code).toBe(0);
          const strip = (s: Record<string, string>) =>
            Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.replace(/ [0-9.]+ /, " ")]));
          expect(strip(snapshot(one.project))).toEqual(strip(before));
        } finally {
          one.dispose();
        }
      }),
      { numRuns: 40 },
    );
  });
});
