// `npx stratumc install` in a project that has stratumc as a devDependency, end to end: the
// project links this package as npm does for a `file:` dependency (node_modules/stratumc, the bins
// in node_modules/.bin), install runs through npx and the built launcher, and the command it
// writes into the shared .mcp.json is started as Claude Code starts it — in the project, with a
// PATH that has node and npx but not node_modules/.bin — and answers tools/list over the MCP SDK.
// Uninstall then gives back exactly what was there.
import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "../cli/run-cli";

let root: string;
let project: string;
let home: string;

/** PATH as Claude Code has it: node and npx, and no project's node_modules/.bin. */
const PLAIN_PATH = [...new Set([dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"])].join(":");

beforeAll(() => ensureBundle());
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "stratum-install-dep-")));
  project = join(root, "project");
  home = join(root, "home");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** What `npm install --save-dev <this checkout>` leaves: package.json, the link, the bins. */
function linkThisPackage(dependencies: "devDependencies" | "dependencies" | null): void {
  const manifest: Record<string, unknown> = { name: "newcomer-project", version: "1.0.0", private: true };
  if (dependencies !== null) manifest[dependencies] = { stratumc: `file:${REPO}` };
  writeFileSync(join(project, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(join(project, "node_modules/.bin"), { recursive: true });
  symlinkSync(REPO, join(project, "node_modules/stratumc"));
  for (const bin of ["stratumc", "stratum-mcp"])
    symlinkSync(`../stratumc/bin/${bin}.cjs`, join(project, "node_modules/.bin", bin));
}

// npm_config_update_notifier: npx asks the registry for a newer npm otherwise (the tests stay offline).
const env = () => ({
  PATH: PLAIN_PATH,
  HOME: home,
  STRATUM_HOME: join(home, ".stratum"),
  npm_config_update_notifier: "false",
});

/** `npx --no-install stratumc ARGS` in the project, as a newcomer runs it. */
function npxStratumc(args: readonly string[]) {
  const r = spawnSync("npx", ["--no-install", "stratumc", ...args], {
    cwd: project,
    encoding: "utf8",
    input: "",
    env: env(),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under the project and home with its bytes and mode (node_modules left out). */
function snapshot(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.name === "node_modules" || entry.name === ".npm") continue;
      if (entry.isDirectory()) walk(path);
      else files[path] = `${(statSync(path).mode & 0o777).toString(8)} ${readFileSync(path, "utf8")}`;
    }
  };
  walk(root);
  return files;
}

/** Starts `command args` as Claude Code does for a project server and lists the tools. */
async function toolsOf(entry: { command: string; args?: string[] }): Promise<string[]> {
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args ?? [],
    cwd: project,
    env: env(),
    stderr: "pipe",
  });
  const client = new Client({ name: "claude-code-stand-in", version: "0.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools(undefined, { timeout: 20_000 });
    return tools.map((t) => t.name);
  } finally {
    await client.close().catch(() => undefined);
  }
}

describe("npx stratumc install with stratumc a dependency of the project", () => {
  it("writes `npx --no-install stratum-mcp` to .mcp.json, says why, and that command serves the tools", async () => {
    linkThisPackage("devDependencies");
    const before = snapshot();
    const answer = npxStratumc(["install"]);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain(
      [
        "  .mcp.json: created",
        "    MCP server command: npx --no-install stratum-mcp",
        "    stratumc is in the devDependencies of package.json, so every teammate who ran npm install has " +
          "stratum-mcp in node_modules/.bin: npx starts it from there wherever .mcp.json is read, without " +
          "stratum-mcp on PATH.",
        "",
      ].join("\n"),
    );
    const config = JSON.parse(readFileSync(join(project, ".mcp.json"), "utf8"));
    expect(config).toEqual({
      mcpServers: { stratum: { command: "npx", args: ["--no-install", "stratum-mcp"] } },
    });
    const tools = await toolsOf(config.mcpServers.stratum);
    expect(tools).toContain("stratum_plan");
    expect(tools.length).toBeGreaterThan(10);

    const again = npxStratumc(["install"]);
    expect(again.stdout).toContain("  .mcp.json: stratum server already present\n");
    expect(again.stdout).toMatch(/\nNothing to change: Stratum is already configured\.\n$/);

    expect(npxStratumc(["uninstall"]).code).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  it("a stratumc in dependencies counts the same", () => {
    linkThisPackage("dependencies");
    const answer = npxStratumc(["install"]);
    expect(answer.stdout).toContain("    stratumc is in the dependencies of package.json");
    expect(JSON.parse(readFileSync(join(project, ".mcp.json"), "utf8")).mcpServers.stratum).toEqual({
      command: "npx",
      args: ["--no-install", "stratum-mcp"],
    });
  });

  it("repairs the bare `stratum-mcp` an earlier install wrote, and uninstall still gives the file back", async () => {
    linkThisPackage("devDependencies");
    const old = '{\n  "mcpServers": {\n    "stratum": {\n      "command": "stratum-mcp"\n    }\n  }\n}\n';
    writeFileSync(join(project, ".mcp.json"), old);
    const answer = npxStratumc(["install"]);
    expect(answer.stdout).toContain("  .mcp.json: stratum server command updated (was stratum-mcp)\n");
    const config = JSON.parse(readFileSync(join(project, ".mcp.json"), "utf8"));
    expect(config.mcpServers.stratum).toEqual({ command: "npx", args: ["--no-install", "stratum-mcp"] });
    expect(npxStratumc(["uninstall"]).code).toBe(0);
    expect(readFileSync(join(project, ".mcp.json"), "utf8")).toBe(old);
  });

  it("not a dependency, only on PATH through npx: the local scope, with the absolute path, and why", async () => {
    linkThisPackage(null);
    const answer = npxStratumc(["install"]);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain("  ~/.claude.json: stratum server added (local scope of this project)\n");
    expect(answer.stdout).toContain(
      "    stratum-mcp is on PATH only through node_modules/.bin (as npx runs it), and stratumc is not a " +
        "dependency in package.json, so this command works on this machine only: it is registered for you " +
        "alone (~/.claude.json), not in the shared .mcp.json.",
    );
    expect(() => statSync(join(project, ".mcp.json"))).toThrow();
    const entry = JSON.parse(readFileSync(join(home, ".claude.json"), "utf8")).projects[project].mcpServers
      .stratum;
    expect(entry.command).toBe(process.execPath);
    expect(await toolsOf(entry)).toContain("stratum_plan");
  });
});
