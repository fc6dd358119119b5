// Restarts of the built stratum-mcp: the server process is SIGKILLed between tool calls (a crash:
// nothing flushed, no goodbye) and a new process on the same STRATUM_HOME continues the same flows
// from the durable store (docs/reference/runtime.md §14), interleaved across two flows.
import { afterEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { dictFromRecord } from "../../stdlib/values/json";
import { McpStratumApi } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

const SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Do the work"
    input: {}
    output: Out
    ensure:
      - "result.v != ''"
  sign_off:
    mode: gate
flows:
  main:
    input:
      topic: {type: string}
    steps:
      - id: draft
        function: work
        inputs: {}
      - id: refine
        function: work
        inputs: {}
        depends_on: [draft]
      - id: polish
        function: work
        inputs: {}
        depends_on: [refine]
      - id: approve
        function: sign_off
        on_approve: ~
        on_revise: draft
        on_kill: ~
        depends_on: [polish]
`;

type Plain = Record<string, unknown>;

describe("a new server process continues the flows of a killed one", () => {
  const home = tempDir("stratum-mcp-restart-");
  let server: RunningServer | undefined;
  const stderr: string[] = [];

  /** Kills the running server (if any) and starts a new one on the same store. */
  async function restart(): Promise<McpStratumApi> {
    if (server !== undefined) {
      await server.kill();
      stderr.push(server.stderr());
    }
    const next = await startServer({ cwd: home.path, home: home.path });
    server = next;
    return new McpStratumApi(async () => next.client);
  }

  afterEach(async () => {
    if (server !== undefined) {
      expect(await server.closeInput()).toBe(0);
      stderr.push(server.stderr());
    }
    home.dispose();
    expect(unexpectedStderr(stderr.join(""))).toBe("");
  });

  it("continues two interleaved flows across four processes", async () => {
    const pids = new Set<number | undefined>();
    const call = async <T>(api: McpStratumApi, f: (api: McpStratumApi) => Promise<T>) => {
      pids.add(server?.child.pid);
      const answer = await f(api);
      expect(api.problems).toEqual([]);
      return wireToPlain(answer as never) as Plain;
    };
    const result = (v: string) => dictFromRecord({ v });

    let api = await restart();
    const x = await call(api, (a) =>
      a.plan({ spec: SPEC, flow: "main", inputs: dictFromRecord({ topic: "x" }) }),
    );
    const y = await call(api, (a) =>
      a.plan({ spec: SPEC, flow: "main", inputs: dictFromRecord({ topic: "y" }) }),
    );
    expect([x.status, x.step_id, y.status, y.step_id]).toEqual([
      "execute_step",
      "draft",
      "execute_step",
      "draft",
    ]);
    const X = x.flow_id as string;
    const Y = y.flow_id as string;
    expect(X).not.toBe(Y);
    const refine = await call(api, (a) => a.stepDone({ flow_id: X, step_id: "draft", result: result("x1") }));
    expect([refine.status, refine.step_id, refine.step_number]).toEqual(["execute_step", "refine", 2]);

    api = await restart();
    // The step the killed process handed out is the one the new process expects.
    const polish = await call(api, (a) =>
      a.stepDone({ flow_id: X, step_id: "refine", result: result("x2") }),
    );
    expect([polish.status, polish.step_id, polish.step_number]).toEqual(["execute_step", "polish", 3]);
    const resumedY = await call(api, (a) => a.resume({ flow_id: Y }));
    expect([resumedY.status, resumedY.step_id, resumedY.flow_id]).toEqual(["execute_step", "draft", Y]);
    // A retry spent before the crash stays spent.
    const failed = await call(api, (a) => a.stepDone({ flow_id: Y, step_id: "draft", result: result("") }));
    expect([failed.status, failed.retries_remaining]).toEqual(["ensure_failed", 2]);

    api = await restart();
    const gate = await call(api, (a) => a.stepDone({ flow_id: X, step_id: "polish", result: result("x3") }));
    expect([gate.status, gate.step_id]).toEqual(["await_gate", "approve"]);
    const retried = await call(api, (a) => a.stepDone({ flow_id: Y, step_id: "draft", result: result("") }));
    expect([retried.status, retried.retries_remaining]).toEqual(["ensure_failed", 1]);

    api = await restart();
    const done = await call(api, (a) =>
      a.gateResolve({
        flow_id: X,
        step_id: "approve",
        outcome: "approve",
        rationale: "ok",
        resolved_by: "human",
      }),
    );
    expect([done.status, done.flow_id]).toEqual(["complete", X]);
    expect(done.output).toEqual({ v: "x3" });

    const auditX = await call(api, (a) => a.audit({ flow_id: X }));
    expect(auditX.status).toBe("complete");
    expect(auditX.steps_completed).toBe(4);
    expect((auditX.trace as Plain[]).map((r) => r.step_id)).toEqual(["draft", "refine", "polish", "approve"]);
    const auditY = await call(api, (a) => a.audit({ flow_id: Y }));
    expect([auditY.status, auditY.steps_completed]).toEqual(["in_progress", 0]);
    expect(pids.size).toBe(4);
  });
});
