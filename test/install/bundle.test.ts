// install / uninstall and the hook refresh of bare `stratum-mcp`, through the built binaries, in a
// temporary project with a temporary HOME and STRATUM_HOME.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "../cli/run-cli";

let home: string;
let project: string;
beforeAll(() => ensureBundle());
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "stratum-install-"));
  project = join(home, "proj");
  mkdirSync(join(project, ".git"), { recursive: true });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function run(bin: "stratumc" | "stratum-mcp", args: readonly string[], path = process.env.PATH) {
  return runIn(bin, args, path);
}

function runIn(bin: "stratumc" | "stratum-mcp", args: readonly string[], path: string | undefined) {
  const r = spawnSync(process.execPath, [join(REPO, `bin/${bin}.cjs`), ...args], {
    cwd: project,
    encoding: "utf8",
    input: "",
    env: { ...process.env, HOME: home, STRATUM_HOME: join(home, ".stratum"), PATH: path },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("install through the binaries", () => {
  it("installs, changes nothing the second time, and uninstalls what it wrote", () => {
    const bin = join(home, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "stratum-mcp"), "#!/bin/sh\n", { mode: 0o755 });
    const run = (b: "stratumc" | "stratum-mcp", args: readonly string[]) => runIn(b, args, bin);
    const first = run("stratumc", ["install"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /\n\nDone\. Restart Claude Code so that it loads the Stratum MCP server\.\n$/,
    );
    expect(JSON.parse(readFileSync(join(project, ".mcp.json"), "utf8"))).toEqual({
      mcpServers: { stratum: { command: "stratum-mcp" } },
    });
    expect(existsSync(join(home, ".claude/skills/stratum-plan/SKILL.md"))).toBe(true);

    const second = run("stratum-mcp", ["install"]);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/\n\nNothing to change: Stratum is already configured\.\n$/);

    const removed = run("stratumc", ["uninstall"]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(
      /Done\. Restart Claude Code so that it unloads the Stratum MCP server\.\n$/,
    );
    expect(existsSync(join(project, ".mcp.json"))).toBe(false);
    expect(existsSync(join(project, "CLAUDE.md"))).toBe(false);
    expect(existsSync(join(home, ".claude/skills/stratum-plan"))).toBe(false);
  });

  it("without stratum-mcp on PATH, the local-scope command it registers starts the server", () => {
    const answer = run("stratumc", ["install"], join(home, "empty"));
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain("stratum-mcp is not on PATH");
    expect(existsSync(join(project, ".mcp.json"))).toBe(false);
    const config = JSON.parse(readFileSync(join(home, ".claude.json"), "utf8"));
    const entry = config.projects[realpathSync(project)].mcpServers.stratum;
    expect(entry.args).toEqual([join(REPO, "bin/stratum-mcp.cjs")]);
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const server = spawnSync(entry.command, entry.args, {
      cwd: project,
      encoding: "utf8",
      input: `${JSON.stringify(init)}\n`,
      env: { HOME: home, STRATUM_HOME: join(home, ".stratum") }, // no PATH at all
    });
    expect(server.status).toBe(0);
    expect(JSON.parse(server.stdout.split("\n")[0] ?? "").result.serverInfo).toBeDefined();
    expect(run("stratumc", ["uninstall"], "").code).toBe(0);
    expect(existsSync(join(home, ".claude.json"))).toBe(false);
  });

  it("bare stratum-mcp puts the hook scripts in place before serving (one line on stderr)", () => {
    const r = run("stratum-mcp", []);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(""); // stdin closed at once: no protocol traffic
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    for (const script of [
      "stratum-session-start.sh",
      "stratum-session-stop.sh",
      "stratum-post-tool-failure.sh",
    ]) {
      const path = join(home, ".stratum/hooks", script);
      expect(statSync(path).mode & 0o111).not.toBe(0);
    }
    expect(run("stratum-mcp", []).stderr).toBe(""); // already up to date: silent
  });
});
