// The result cache through the built stratum-mcp over stdio (docs/reference/runtime.md §25.4): a
// second stratum_plan of a spec whose first step is a cached compute step answers with the step
// after it, the audit counts the hit, the entry is a file under STRATUM_HOME/cache/results, and
// with STRATUM_DISABLE_RESULT_CACHE the step is dispatched again.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { leaks, type Sandbox, sandbox } from "../hostile/mcp-support";
import { RawSession, toolContent } from "./support/raw-session";

type Plain = Record<string, unknown>;

const SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  calc:
    mode: compute
    intent: c
    input: {n: {type: integer}}
    output: Out
    cache: true
flows:
  main:
    input: {n: {type: integer}}
    steps:
      - id: a
        function: calc
        inputs: {n: $.input.n}
      - id: b
        intent: use
        inputs: {v: $.steps.a.output.v}
`;

let box: Sandbox | undefined;
afterEach(() => box?.dispose());

async function session(
  env: Record<string, string> = {},
): Promise<{ call: (n: string, a: Plain) => Promise<Plain>; close: () => Promise<void> }> {
  if (box === undefined) throw new Error("no sandbox");
  const server = new RawSession(box, { env });
  await server.initialize();
  let id = 0;
  return {
    call: async (name, args) => {
      const answer = await server.request(`c${++id}`, "tools/call", { name, arguments: args });
      expect(leaks(JSON.stringify(answer))).toEqual([]);
      return toolContent(answer) as Plain;
    },
    close: async () => {
      await server.closeInput();
    },
  };
}

describe("the result cache through stratum-mcp", () => {
  it("a second plan is answered from the cache; disabled, the step runs again", async () => {
    box = sandbox("stratum-cache-e2e-");
    const first = await session();
    const plan = await first.call("stratum_plan", { spec: SPEC, flow: "main", inputs: { n: 1 } });
    expect(plan.step_id).toBe("a");
    const done = await first.call("stratum_step_done", {
      flow_id: plan.flow_id,
      step_id: "a",
      result: { v: "one" },
    });
    expect(done.step_id).toBe("b");
    await first.close();
    const entries = readdirSync(join(box.home, "cache", "results"));
    expect(entries.filter((n) => /^[0-9a-f]{64}\.json$/.test(n))).toHaveLength(1);

    const second = await session();
    const again = await second.call("stratum_plan", { spec: SPEC, flow: "main", inputs: { n: 1 } });
    expect(again).toMatchObject({ status: "execute_step", step_id: "b", inputs: { v: "one" } });
    const audit = await second.call("stratum_audit", { flow_id: again.flow_id });
    expect(audit.cache_hits).toBe(1);
    expect((audit.trace as Plain[])[0]).toMatchObject({ step_id: "a", attempts: 0, cache_hit: true });
    await second.close();

    const off = await session({ STRATUM_DISABLE_RESULT_CACHE: "1" });
    expect((await off.call("stratum_plan", { spec: SPEC, flow: "main", inputs: { n: 1 } })).step_id).toBe(
      "a",
    );
    await off.close();
  });
});
