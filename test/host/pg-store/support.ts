// Shared by the multi-process tests of the PostgreSQL flow store: one real PostgreSQL
// server per test file (test/support/postgres.ts), the built `stratum-mcp` started on a database
// (STRATUM_STORE), its tools called through the real MCP SDK client, and the stored flows read
// back by other means than the server under test (`stratumc query flow`, a PgFlowStore of the test).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { REPO } from "../../cli/run-cli";
import { callTool, type ToolAnswer } from "../../mcp/support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "../../mcp/support/server";
import { type PgServer, startPostgres } from "../../support/postgres";

/** Starts one PostgreSQL server for the file (beforeAll) and destroys it (afterAll). */
export function usePostgres(): () => PgServer {
  let server: PgServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.destroy());
  return () => {
    if (server === undefined) throw new Error("PostgreSQL was not started");
    return server;
  };
}

/** The database name of a store URL. */
export function databaseOf(url: string): string {
  return new URL(url).pathname.slice(1);
}

/** The URL with more query parameters (`application_name` tags a server's connections). */
export function withParams(url: string, params: Readonly<Record<string, string>>): string {
  const out = new URL(url);
  for (const [k, v] of Object.entries(params)) out.searchParams.set(k, v);
  return out.toString();
}

/** A `stratum-mcp` process on a store URL, with a helper for tool calls. */
export interface McpOnStore {
  readonly server: RunningServer;
  /** Protocol deviations seen by `call` (must stay empty). */
  readonly problems: string[];
  call(name: string, args: Readonly<Record<string, unknown>>): Promise<ToolAnswer>;
  /** Closes standard input and waits for the exit code; removes the server's home. */
  close(): Promise<number | null>;
  /** SIGKILL; removes the server's home. */
  kill(): Promise<void>;
}

export async function startMcp(storeUrl: string, cwd: string = REPO): Promise<McpOnStore> {
  const home = tempDir("stratum-pg-mcp-home-");
  const server = await startServer({ cwd, home: home.path, env: { STRATUM_STORE: storeUrl } });
  const problems: string[] = [];
  return {
    server,
    problems,
    call: (name, args) => callTool(server.client, name, args, problems),
    async close() {
      try {
        return await server.closeInput();
      } finally {
        home.dispose();
      }
    },
    async kill() {
      try {
        await server.kill();
      } finally {
        home.dispose();
      }
    },
  };
}

/**
 * `startMcp`, resolved once the server has opened its store: the server opens it beside serving,
 * so its first store call pays for the client library, the connection and the schema check.
 * (One read of a flow that does not exist waits for that opening.)
 */
export async function startMcpOpened(storeUrl: string): Promise<McpOnStore> {
  const mcp = await startMcp(storeUrl);
  const answer = plain(await mcp.call("stratum_audit", { flow_id: "00000000-0000-4000-8000-000000000000" }));
  if (answer.error_type !== "flow_not_found") throw new Error(`store not opened: ${JSON.stringify(answer)}`);
  return mcp;
}

/** What a server wrote to stderr besides the start-up notices (expected: nothing). */
export function unexpectedOf(mcp: McpOnStore): string {
  return unexpectedStderr(mcp.server.stderr());
}

/** The plain JSON of a tool answer (integers as numbers). */
export function plain(answer: ToolAnswer): Record<string, unknown> {
  return JSON.parse(answer.text) as Record<string, unknown>;
}

/** `stratumc query flow <id>` on the store: the flow-state.v1 object. */
export function queryFlow(storeUrl: string, flowId: string): Record<string, unknown> {
  const result = spawnSync(process.execPath, [join(REPO, "bin/stratumc.cjs"), "query", "flow", flowId], {
    env: { PATH: process.env.PATH ?? "", STRATUM_STORE: storeUrl },
    encoding: "utf8",
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(`stratumc query flow ${flowId}: ${result.stderr}${result.stdout}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** The stored revision of a flow, read with psql (0 when there is none). */
export function storedRevisionSql(pg: PgServer, storeUrl: string, flowId: string): number {
  const out = pg.psql(
    `SELECT revision FROM stratum.flows WHERE flow_id = '${flowId.replace(/'/g, "''")}'`,
    databaseOf(storeUrl),
  );
  return out.trim() === "" ? 0 : Number(out.trim());
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 50 ms until it returns true or `timeoutMs` passed; returns whether it did. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await sleep(50);
  }
}

/**
 * A flow of STEPS function steps followed by a gate: every step_done moves on by one step, the
 * gate's approval completes the flow.
 */
export const STEPS = ["s1", "s2", "s3", "s4"] as const;
export const CHAIN_SPEC = `version: "0.2"
contracts:
  Work:
    w: {type: string}
functions:
  work:
    mode: infer
    intent: "Do the work"
    input: {}
    output: Work
  review:
    mode: gate
flows:
  chain:
    input: {}
    steps:
${STEPS.map((s) => `      - id: ${s}\n        function: work\n        inputs: {}`).join("\n")}
      - id: approve
        function: review
        on_approve: ~
        on_revise: s1
        on_kill: ~
`;

/** The CHAIN_SPEC flow planned on `server` with every step done: it waits at its gate. */
export async function chainAtGate(server: McpOnStore): Promise<string> {
  const planned = plain(await server.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} }));
  const id = String(planned.flow_id);
  for (const step of STEPS) {
    await server.call("stratum_step_done", { flow_id: id, step_id: step, result: { w: step } });
  }
  return id;
}
