// A poll writes nothing on the PostgreSQL store (docs/reference/runtime.md §14.2): a
// `stratum_resume` that finds the flow waiting at its gate changes nothing, so it commits no
// revision, and a gate resolution from a second server never loses a race to an agent polling
// back to back on the first (before, every poll committed a revision and a resolution could be
// refused `stale_state` on each of its tries). Real processes, real PostgreSQL.
import { afterEach, describe, expect, it } from "vitest";
import {
  chainAtGate,
  type McpOnStore,
  plain,
  STEPS,
  startMcpOpened,
  storedRevisionSql,
  unexpectedOf,
  usePostgres,
} from "./support";

const pg = usePostgres();
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}, 60_000);

async function mcp(url: string): Promise<McpOnStore> {
  const server = await startMcpOpened(url);
  cleanups.push(async () => {
    expect(await server.close()).toBe(0);
    expect(unexpectedOf(server)).toBe("");
    expect(server.problems).toEqual([]);
  });
  return server;
}

describe("a poll on the PostgreSQL store writes nothing", () => {
  it("a stratum_resume that changes nothing leaves the revision unchanged", async () => {
    const url = pg().createDatabase("poll");
    const agent = await mcp(url);
    const id = await chainAtGate(agent);
    const before = storedRevisionSql(pg(), url, id);
    expect(before).toBe(1 + STEPS.length);
    for (let i = 0; i < 5; i += 1) {
      expect(plain(await agent.call("stratum_resume", { flow_id: id }))).toMatchObject({
        status: "await_gate",
      });
    }
    expect(storedRevisionSql(pg(), url, id)).toBe(before);
    // What the poll answers is still the flow as stored: the gate resolves and the flow completes.
    const resolved = plain(
      await agent.call("stratum_gate_resolve", {
        flow_id: id,
        step_id: "approve",
        outcome: "approve",
        rationale: "ok",
        resolved_by: "human",
      }),
    );
    expect(resolved).toMatchObject({ status: "complete" });
    expect(storedRevisionSql(pg(), url, id)).toBe(before + 1);
  }, 60_000);

  it("a gate resolution from a second server while the agent polls back to back succeeds at once", async () => {
    const url = pg().createDatabase("pollrace");
    const agent = await mcp(url);
    const resolver = await mcp(url);
    for (let round = 0; round < 3; round += 1) {
      const id = await chainAtGate(agent);
      let polling = true;
      let polls = 0;
      let last: Record<string, unknown> = {};
      const poller = (async () => {
        while (polling) {
          last = plain(await agent.call("stratum_resume", { flow_id: id }));
          polls += 1;
          if (last.status !== "await_gate") return;
        }
      })().catch((e: unknown) => {
        last = { status: "poll failed", error: String(e) };
      });
      // Several resolutions land while the agent polls: each must go through on its first try.
      while (polls < 3) await new Promise((resolve) => setTimeout(resolve, 5));
      const resolved = plain(
        await resolver.call("stratum_gate_resolve", {
          flow_id: id,
          step_id: "approve",
          outcome: "approve",
          rationale: "from the page",
          resolved_by: "human",
        }),
      );
      polling = false;
      await poller;
      expect(resolved).toMatchObject({ status: "complete" });
      expect(last.status === "await_gate" || last.status === "complete").toBe(true);
      expect(plain(await agent.call("stratum_resume", { flow_id: id }))).toMatchObject({
        status: "complete",
      });
    }
  }, 90_000);
});
