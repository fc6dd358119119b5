// Flows partitioned across databases, end to end through the built `stratum-mcp` (STRATUM_STORE
// a list of URLs, docs/guides/team-store.md "More than one database"): two servers given the same
// three databases in different orders share flows with sub-flows — each step may go to either
// server — every flow is stored in the one database its id hashes to, a parent and its child in
// different databases complete together, `stratumc query flow` reads the result through the
// list, and a command given a list that changed is refused with the reason.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PartitionedFlowStore } from "../../../host/pg-store/partitioned-store";
import { REPO } from "../../cli/run-cli";
import { TRACED_SPEC } from "../tracing/fixtures";
import {
  databaseOf,
  type McpOnStore,
  plain,
  queryFlow,
  startMcp,
  startMcpOpened,
  unexpectedOf,
  usePostgres,
} from "./support";

const pg = usePostgres();
let urls: string[];
let a: McpOnStore;
let b: McpOnStore;

beforeAll(async () => {
  urls = [0, 1, 2].map(() => pg().createDatabase("pmcp"));
  a = await startMcpOpened(urls.join(" "));
  b = await startMcp(`${urls[2]} ${urls[0]}   ${urls[1]}`);
}, 120_000);

afterAll(async () => {
  const codes = await Promise.all([a?.close(), b?.close()]);
  expect(codes).toEqual([0, 0]);
  expect([...a.problems, ...b.problems]).toEqual([]);
  expect(unexpectedOf(a) + unexpectedOf(b)).toBe("");
}, 60_000);

/** The databases (indexes in `urls`) that hold a flow, read with psql. */
function holders(flowId: string): number[] {
  return urls
    .map((url, i) => ({
      i,
      n: pg().psql(`SELECT count(*) FROM stratum.flows WHERE flow_id = '${flowId}'`, databaseOf(url)).trim(),
    }))
    .filter((r) => r.n === "1")
    .map((r) => r.i);
}

/** One flow with a retry, a sub-flow and a gate, its calls alternating between the servers. */
async function runFlow(): Promise<{ parent: string; child: string }> {
  const planned = plain(await a.call("stratum_plan", { spec: TRACED_SPEC, flow: "main", inputs: {} }));
  const parent = String(planned.flow_id);
  expect(
    plain(await b.call("stratum_step_done", { flow_id: parent, step_id: "draft", result: { ok: false } }))
      .status,
  ).toBe("ensure_failed");
  const sub = plain(
    await a.call("stratum_step_done", { flow_id: parent, step_id: "draft", result: { ok: true } }),
  );
  expect(sub.status).toBe("execute_flow");
  const child = String(sub.child_flow_id);
  const done = plain(
    await b.call("stratum_step_done", { flow_id: child, step_id: "work", result: { v: 1 } }),
  );
  expect(done.status).toBe("complete");
  const gate = plain(await a.call("stratum_step_done", { flow_id: parent, step_id: "sub", result: done }));
  expect(gate.status).toBe("await_gate");
  const resumed = plain(await b.call("stratum_resume", { flow_id: parent }));
  expect(resumed.status).toBe("await_gate");
  const resolved = plain(
    await b.call("stratum_gate_resolve", {
      flow_id: parent,
      step_id: "review",
      outcome: "approve",
      rationale: "ship it",
      resolved_by: "human",
    }),
  );
  expect(resolved.status).toBe("complete");
  return { parent, child };
}

describe("stratum-mcp on a list of databases", () => {
  it("shares flows with sub-flows between servers, each flow in the database its id hashes to", async () => {
    const hash = new PartitionedFlowStore(urls.join(" "));
    let across = 0;
    // A parent and its child land in different databases 2 times in 3: 12 flows miss that with
    // a chance of (1/3)^12.
    for (let k = 0; k < 12 && across < 2; k++) {
      const { parent, child } = await runFlow();
      expect(holders(parent)).toEqual([hash.partitionOf(parent)]);
      const childAt = holders(child);
      expect(childAt.length === 0 || (childAt.length === 1 && childAt[0] === hash.partitionOf(child))).toBe(
        true,
      );
      if (hash.partitionOf(parent) !== hash.partitionOf(child)) across += 1;
      const stored = queryFlow(urls.join(" "), parent);
      expect(stored).toMatchObject({ flow_id: parent, status: "complete" });
    }
    expect(across).toBeGreaterThan(0);
  }, 240_000);

  it("refuses a command given a list that changed, saying why", () => {
    const result = spawnSync(
      process.execPath,
      [join(REPO, "bin/stratumc.cjs"), "query", "flow", "00000000-0000-4000-8000-000000000000"],
      {
        env: { PATH: process.env.PATH ?? "", STRATUM_STORE: `${urls[0]} ${urls[1]}` },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(
      /the store list now names \[.*\]: flows would be looked for in the wrong database/,
    );
  });
});
