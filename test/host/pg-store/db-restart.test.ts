// The database going away and coming back under a running `stratum-mcp`
// (docs/guides/team-store.md): while PostgreSQL is stopped, every flow call answers the `store_unavailable`
// tool error — a clear message naming the store by its URL without the password, no stack trace,
// the call not applied — and the server process stays up; once the database is back, the next
// calls succeed and the flow continues exactly where it was (no step lost, none applied twice).
// A server started while the database is down says so in one line on stderr (once its opening of
// the store, beside serving, is refused), answers
// store_unavailable, and works as soon as the database is up.
import { afterEach, describe, expect, it } from "vitest";
import {
  CHAIN_SPEC,
  eventually,
  type McpOnStore,
  plain,
  queryFlow,
  startMcp,
  storedRevisionSql,
  unexpectedOf,
  usePostgres,
} from "./support";

const pg = usePostgres();
const PASSWORD = "s3cret-never-shown";

/** A store URL with a password (trust authentication ignores it), so messages can be checked for it. */
function urlWithPassword(url: string): string {
  const u = new URL(url);
  u.password = PASSWORD;
  return u.toString();
}

let server: McpOnStore | null = null;
let stopped = false;

function stopDatabase(): void {
  pg().stop();
  stopped = true;
}
function startDatabase(): void {
  pg().start();
  stopped = false;
}

afterEach(async () => {
  if (stopped) startDatabase();
  if (server !== null) expect(await server.close()).toBe(0);
  server = null;
}, 60_000);

const stepDone = (s: McpOnStore, flowId: string, stepId: string) =>
  s.call("stratum_step_done", { flow_id: flowId, step_id: stepId, result: { w: stepId } }).then(plain);

/** Checks a store_unavailable answer: its message, its fields, nothing secret, no stack. */
function expectUnavailable(answer: Record<string, unknown>, storeUrl: string): void {
  const display = `postgres://postgres@127.0.0.1:${pg().port}${new URL(storeUrl).pathname}`;
  expect(answer).toMatchObject({ status: "error", error_type: "store_unavailable", store: display });
  const message = String(answer.message);
  expect(message).toContain(`cannot reach the flow store at ${display}`);
  expect(message).toContain("the call was not applied — retry it when the store is back");
  expect(answer.outcome).toBeUndefined();
  expect(JSON.stringify(answer)).not.toContain(PASSWORD);
  expect(JSON.stringify(answer)).not.toMatch(/\n\s+at |\.(c?js|ts):\d+/);
}

describe("the database restarted under a running MCP server", () => {
  it("answers store_unavailable while it is down, then continues the flow where it was", async () => {
    const url = urlWithPassword(pg().createDatabase("restart"));
    server = await startMcp(url);
    const planned = plain(await server.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} }));
    const id = String(planned.flow_id);
    expect(await stepDone(server, id, "s1")).toMatchObject({ status: "execute_step", step_id: "s2" });

    stopDatabase();
    // A committing call, a reading call and a new plan: all refused the same way, nothing applied.
    for (let i = 0; i < 3; i++) expectUnavailable(await stepDone(server, id, "s2"), url);
    expectUnavailable(plain(await server.call("stratum_audit", { flow_id: id })), url);
    expectUnavailable(
      plain(await server.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} })),
      url,
    );
    expect(server.server.child.exitCode).toBeNull();
    expect(server.server.child.signalCode).toBeNull();

    startDatabase();
    // The very next call succeeds: the server's connections to the old database process are gone.
    expect(await stepDone(server, id, "s2")).toMatchObject({ status: "execute_step", step_id: "s3" });
    expect(await stepDone(server, id, "s3")).toMatchObject({ status: "execute_step", step_id: "s4" });
    const stored = queryFlow(url, id);
    expect((stored.records as { step_id: string }[]).map((r) => r.step_id)).toEqual(["s1", "s2", "s3"]);
    expect(stored.step_outputs).toEqual({ s1: { w: "s1" }, s2: { w: "s2" }, s3: { w: "s3" } });
    // The plan and three step_done calls: the refused ones wrote nothing.
    expect(storedRevisionSql(pg(), url, id)).toBe(4);
    // Nothing on stderr: an unreachable store is the caller's answer, not a server failure.
    expect(unexpectedOf(server)).toBe("");
    expect(server.problems).toEqual([]);
  }, 120_000);

  it("starts while the database is down: one line on stderr, store_unavailable, then works", async () => {
    const url = urlWithPassword(pg().createDatabase("late"));
    stopDatabase();
    server = await startMcp(url);
    const started = server;
    const display = `postgres://postgres@127.0.0.1:${pg().port}${new URL(url).pathname}`;
    // The store is opened beside serving: its line comes once the connection is refused.
    expect(await eventually(() => unexpectedOf(started) !== "", 10_000)).toBe(true);
    const lines = unexpectedOf(server)
      .split("\n")
      .filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^stratum-mcp: cannot reach the flow store at ${display}: `));
    expect(lines[0]).not.toContain(PASSWORD);
    expectUnavailable(
      plain(await server.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} })),
      url,
    );
    expect(server.server.child.exitCode).toBeNull();

    startDatabase();
    const planned = plain(await server.call("stratum_plan", { spec: CHAIN_SPEC, flow: "chain", inputs: {} }));
    expect(planned).toMatchObject({ status: "execute_step", step_id: "s1" });
    const id = String(planned.flow_id);
    expect(await stepDone(server, id, "s1")).toMatchObject({ status: "execute_step", step_id: "s2" });
    expect(storedRevisionSql(pg(), url, id)).toBe(2);
    // Still the one line from the start: the failed and the good calls added nothing.
    expect(
      unexpectedOf(server)
        .split("\n")
        .filter((l) => l !== ""),
    ).toHaveLength(1);
    expect(server.problems).toEqual([]);
  }, 120_000);
});
