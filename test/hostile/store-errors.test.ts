// Failures of the store reach the agent as specific errors, never as
// `internal_error "An unexpected error occurred."`, a stack trace or a library dump.
//   - store_unwritable (a read-only file system, a full disk, no permission, a file where the
//     flows directory should be): the path and the OS reason, through the real MCP server;
//   - flow_corrupt (a flow file that is not JSON or not a flow): the file and the problem, from
//     the MCP tool instead of "No active flow with id", and in `query flows` / `query flow`.
// Read-only and full file systems are real: a tmpfs mounted in a private mount namespace
// (`unshare -rm`, no root needed where user namespaces are enabled) under the MCP server's
// STRATUM_HOME — remounted read-only, or 128 KB small. Where `unshare` cannot mount (user
// namespaces disabled), those two cases are skipped, with the reason printed by vitest.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../host/file-store/file-store";
import { TestHome } from "../cli/flows/harness";
import { ensureBundle } from "../cli/run-cli";
import { callTool } from "../mcp/support/mcp-api";
import { MCP_BIN, startServer } from "../mcp/support/server";
import { engine, planFlow, result, SPEC } from "./store-support";

/** Whether this machine lets an unprivileged process mount a tmpfs in its own namespaces. */
const canMount =
  process.platform === "linux" &&
  spawnSync("unshare", ["-rm", "sh", "-c", 'd=$(mktemp -d) && mount -t tmpfs -o size=16k tmpfs "$d"'], {
    stdio: "ignore",
  }).status === 0;
const isRoot = process.getuid?.() === 0;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "stratum-hostile-errors-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The built MCP server in a private mount namespace: a tmpfs (`size`) mounted on `home`, filled
 * with a copy of `seed` (a STRATUM_HOME), remounted read-only when `readOnly`.
 */
async function serverOnTmpfs(home: string, seed: string, size: string, readOnly: boolean) {
  ensureBundle();
  const script = [
    `mount -t tmpfs -o size=${size} tmpfs "$0"`,
    `cp -a "$1"/. "$0"`,
    ...(readOnly ? [`mount -o remount,ro "$0"`] : []),
    `exec "$2" "$3"`,
  ].join(" && ");
  const transport = new StdioClientTransport({
    command: "unshare",
    args: ["-rm", "sh", "-c", script, home, seed, process.execPath, MCP_BIN],
    cwd: dir,
    env: { STRATUM_HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "stratumc-hostile", version: "0.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

function expectNoDump(text: string): void {
  expect(text).not.toMatch(/\n\s+at |internal_error|An unexpected error occurred/);
}

describe("store_unwritable", () => {
  it.runIf(canMount)(
    "a read-only file system: the path and EROFS, through the MCP tool; reads still work",
    async () => {
      const seed = join(dir, "seed");
      const id = await planFlow(engine(new FileFlowStore(seed), dir));
      const home = join(dir, "home");
      mkdirSync(home);
      const server = await serverOnTmpfs(home, seed, "1m", true);
      try {
        const problems: string[] = [];
        const audit = await callTool(server.client, "stratum_audit", { flow_id: id }, problems);
        expect(audit.response.status).not.toBe("error");
        const done = await callTool(
          server.client,
          "stratum_step_done",
          { flow_id: id, step_id: "a", result: { v: "x" } },
          problems,
        );
        expect(done.response.error_type).toBe("store_unwritable");
        expect(done.response.message).toMatch(
          new RegExp(
            `^cannot write the flow store at ${home}/flows/\\S+: read-only file system \\(EROFS\\)$`,
          ),
        );
        expect(done.response.reason).toBe("EROFS");
        expectNoDump(done.text);
        expect(problems).toEqual([]);
        expect(server.stderr()).not.toMatch(/\n\s+at /);
      } finally {
        await server.close();
      }
    },
  );

  it.runIf(canMount)("a full disk: the path and ENOSPC; the server goes on once a flow fits", async () => {
    const home = join(dir, "home");
    const seed = join(dir, "seed");
    mkdirSync(home);
    mkdirSync(seed);
    const server = await serverOnTmpfs(home, seed, "128k", false);
    try {
      const problems: string[] = [];
      // The flow file holds the spec text: 500 KB of comment do not fit in 128 KB (the hook scripts
      // the server writes at start take some of it).
      const big = `${SPEC}${"# filler filler filler filler filler filler filler filler\n".repeat(9000)}`;
      const plan = await callTool(
        server.client,
        "stratum_plan",
        { spec: big, flow: "main", inputs: {} },
        problems,
      );
      expect(plan.response.error_type).toBe("store_unwritable");
      expect(plan.response.message).toMatch(
        new RegExp(
          `^cannot write the flow store at ${home}/flows/\\S+: no space left on device \\(ENOSPC\\)$`,
        ),
      );
      expectNoDump(plan.text);
      // The same server goes on working once the flow fits.
      const small = await callTool(
        server.client,
        "stratum_plan",
        { spec: SPEC, flow: "main", inputs: {} },
        problems,
      );
      expect(small.response.status, small.text).toBe("execute_step");
      expect(problems).toEqual([]);
    } finally {
      await server.close();
    }
  });

  // chmod cannot stop root (the test user here may be root): then the case cannot be made real
  // this way; the read-only tmpfs above covers the same path.
  it.skipIf(isRoot || process.platform === "win32")(
    "a directory without write permission: EACCES",
    async () => {
      const store = new FileFlowStore(dir);
      const api = engine(store, dir);
      const id = await planFlow(api);
      chmodSync(store.flowsDir, 0o555);
      try {
        const done = await api.stepDone({ flow_id: id, step_id: "a", result: result("x") });
        expect(done.error_type).toBe("store_unwritable");
        expect(done.message).toMatch(/^cannot write the flow store at .*: permission denied \(EACCES\)$/);
      } finally {
        chmodSync(store.flowsDir, 0o755);
      }
    },
  );

  it("a file where the flows directory should be: ENOTDIR, with the path", async () => {
    writeFileSync(join(dir, "flows"), "not a directory");
    const plan = await engine(new FileFlowStore(dir), dir).plan({ spec: SPEC, flow: "main" });
    expect(plan).toEqual({
      status: "error",
      error_type: "store_unwritable",
      message: `cannot write the flow store at ${join(dir, "flows")}: not a directory (ENOTDIR)`,
      path: join(dir, "flows"),
      reason: "ENOTDIR",
    });
  });
});

describe("flow_corrupt", () => {
  let t: TestHome;
  beforeEach(() => {
    t = new TestHome();
  });
  afterEach(() => rmSync(t.home, { recursive: true, force: true }));

  it("through the MCP tool: the file and what is wrong, not 'No active flow with id'", async () => {
    const id = await planFlow(t.api());
    const file = join(t.home, "flows", `${id}.json`);
    writeFileSync(file, '{"flow_id": "x", "flow_name": ');
    const server = await startServer({ cwd: t.home, home: t.home });
    try {
      const problems: string[] = [];
      for (const tool of ["stratum_audit", "stratum_resume"]) {
        const answer = await callTool(server.client, tool, { flow_id: id }, problems);
        expect(answer.response.status).toBe("error");
        expect(answer.response.error_type).toBe("flow_corrupt");
        expect(answer.response.file).toBe(file);
        expect(String(answer.response.message)).toContain(`its file ${file} is corrupt (`);
        expectNoDump(answer.text);
      }
      // A value of the wrong kind is corrupt too, with the path of the bad value.
      writeFileSync(file, '{"flow_id": 5}');
      const kind = await callTool(server.client, "stratum_audit", { flow_id: id }, problems);
      expect(kind.response.error_type).toBe("flow_corrupt");
      expect(String(kind.response.message)).toMatch(/flow_id: expected a string/);
      expect(problems).toEqual([]);
      expect(server.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      await server.closeInput();
    }
  });

  it("query flows warns on stderr (default listing stays schema-valid); --all lists it as corrupt", async () => {
    const api = t.api();
    const good = await planFlow(api);
    const bad = await planFlow(api);
    const file = join(t.home, "flows", `${bad}.json`);
    writeFileSync(file, "garbage");
    const plain = await t.cli(["query", "flows"]);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout).map((f: { flow_id: string }) => f.flow_id)).toEqual([good]);
    expect(plain.stderr).toMatch(new RegExp(`^warning: corrupt flow file ${file}: .+\\n$`));

    const all = await t.cli(["query", "flows", "--all"]);
    const listed = JSON.parse(all.stdout) as { flow_id: string; status: string; problem?: string }[];
    expect(listed.map((f) => [f.flow_id, f.status])).toEqual([
      [good, "running"],
      [bad, "corrupt"],
    ]);
    expect(listed[1]!.problem).toMatch(new RegExp(`^${file}: `));

    const one = await t.cli(["query", "flow", bad]);
    expect(one.code).toBe(1);
    expect(JSON.parse(one.stdout).error.code).toBe("flow_corrupt");

    const gate = await t.cli(["gate", "approve", bad, "a"]);
    expect(gate.code).toBe(1);
    expect(JSON.parse(gate.stdout).error.code).toBe("flow_corrupt");
  });
});
