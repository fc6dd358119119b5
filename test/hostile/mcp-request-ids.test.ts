// Two in-flight requests that share an id. JSON-RPC 2.0 makes the id the only
// link between a request and its answer, and MCP says an id must not be reused within a session,
// so the server answers a request that reuses the id of a request still in progress with -32600
// (naming the id) without running it, and the request in progress runs with its own arguments and
// gets its own answer. An id whose request has been answered may be used again. The old server
// looked the raw arguments up by id: both calls ran with the second call's arguments.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawSession, toolContent } from "../mcp/support/raw-session";
import { leaks, type Sandbox, sandbox, tinySpec } from "./mcp-support";

const duplicateError = (id: unknown) => ({
  code: -32600,
  message: `Invalid Request: the id ${JSON.stringify(id)} is already used by a request in progress; this request was not run`,
});

describe("requests that share an id while in progress", () => {
  let box: Sandbox;
  let server: RawSession;

  beforeAll(async () => {
    box = sandbox("stratum-hostile-ids-");
    server = new RawSession(box);
    await server.initialize();
  });

  afterAll(async () => {
    const code = await server.closeInput();
    box.dispose();
    expect(code).toBe(0);
  });

  it("runs the first with its own arguments and rejects the second without running it", async () => {
    server.sendAll([
      { id: 7, method: "tools/call", params: { name: "stratum_validate", arguments: { spec: tinySpec() } } },
      // Same id, another tool and other arguments: stratum_plan would create a flow file.
      {
        id: 7,
        method: "tools/call",
        params: { name: "stratum_plan", arguments: { spec: tinySpec("second"), flow: "second" } },
      },
    ]);
    await server.until(() => server.answers(7).length === 2, "two answers with id 7");
    const [first, second] = [
      server.answers(7).find((m) => m.result !== undefined),
      server.answers(7).find((m) => m.error !== undefined),
    ];
    expect(toolContent(first ?? {})).toEqual({ valid: true, errors: [], warnings: [] });
    expect(second?.error).toEqual(duplicateError(7));
    // The rejected stratum_plan never ran: no flow was created.
    const flows = join(box.home, "flows");
    expect(existsSync(flows) ? readdirSync(flows) : []).toEqual([]);
  });

  it("never gives a flow's step result to another flow that reused the id", async () => {
    const planA = await server.request("plan-a", "tools/call", {
      name: "stratum_plan",
      arguments: { spec: tinySpec("alpha"), flow: "alpha" },
    });
    const planB = await server.request("plan-b", "tools/call", {
      name: "stratum_plan",
      arguments: { spec: tinySpec("beta"), flow: "beta" },
    });
    const a = toolContent(planA).flow_id as string;
    const b = toolContent(planB).flow_id as string;
    expect(a).not.toBe(b);
    server.sendAll([
      {
        id: "done",
        method: "tools/call",
        params: {
          name: "stratum_step_done",
          arguments: { flow_id: a, step_id: "s1", result: { answer: "A" } },
        },
      },
      {
        id: "done",
        method: "tools/call",
        params: {
          name: "stratum_step_done",
          arguments: { flow_id: b, step_id: "s1", result: { answer: "B" } },
        },
      },
    ]);
    await server.until(() => server.answers("done").length === 2, 'two answers with id "done"');
    const result = server.answers("done").find((m) => m.result !== undefined);
    const error = server.answers("done").find((m) => m.error !== undefined);
    expect(error?.error).toEqual(duplicateError("done"));
    expect(toolContent(result ?? {})).toMatchObject({
      status: "complete",
      flow_id: a,
      output: { answer: "A" },
    });
    // Flow alpha finished with its own result; flow beta is untouched and still at its step.
    const auditA = await server.request("audit-a", "tools/call", {
      name: "stratum_audit",
      arguments: { flow_id: a },
    });
    const auditB = await server.request("audit-b", "tools/call", {
      name: "stratum_audit",
      arguments: { flow_id: b },
    });
    expect(toolContent(auditA).status).toBe("complete");
    expect(toolContent(auditB).status).toBe("in_progress");
    expect(JSON.stringify(auditA)).not.toContain('"B"');
    // The rejected call can be sent again under a fresh id and runs then.
    const retry = await server.request("done-again", "tools/call", {
      name: "stratum_step_done",
      arguments: { flow_id: b, step_id: "s1", result: { answer: "B" } },
    });
    expect(toolContent(retry)).toMatchObject({ status: "complete", flow_id: b, output: { answer: "B" } });
  });

  it('treats 1 and "1" as different ids and accepts an id again once it was answered', async () => {
    server.sendAll([
      {
        id: 1,
        method: "tools/call",
        params: { name: "stratum_audit", arguments: { flow_id: "number-one" } },
      },
      {
        id: "1",
        method: "tools/call",
        params: { name: "stratum_audit", arguments: { flow_id: "string-one" } },
      },
    ]);
    await server.until(
      () => server.answers(1).length === 1 && server.answers("1").length === 1,
      'ids 1 and "1"',
    );
    expect(toolContent(server.answers(1)[0] ?? {}).message).toBe("No active flow with id 'number-one'");
    expect(toolContent(server.answers("1")[0] ?? {}).message).toBe("No active flow with id 'string-one'");

    // Id 7 was answered in the first test: using it again is a new request.
    const before = server.answers(7).length;
    server.sendAll([
      {
        id: 7,
        method: "tools/call",
        params: { name: "stratum_audit", arguments: { flow_id: "seven-again" } },
      },
    ]);
    await server.until(() => server.answers(7).length === before + 1, "a new answer with id 7");
    expect(toolContent(server.answers(7)[before] ?? {}).message).toBe("No active flow with id 'seven-again'");
  });

  it("rejects a duplicate of any method, even a ping, while the first is in progress", async () => {
    server.sendAll([
      {
        id: "p",
        method: "tools/call",
        params: { name: "stratum_validate", arguments: { spec: tinySpec() } },
      },
      { id: "p", method: "ping" },
      { id: "p", method: "tools/call", params: { name: "stratum_audit", arguments: { flow_id: "third" } } },
    ]);
    await server.until(() => server.answers("p").length === 3, 'three answers with id "p"');
    const answers = server.answers("p");
    expect(answers.filter((m) => m.error !== undefined).map((m) => m.error)).toEqual([
      duplicateError("p"),
      duplicateError("p"),
    ]);
    expect(toolContent(answers.find((m) => m.result !== undefined) ?? {})).toEqual({
      valid: true,
      errors: [],
      warnings: [],
    });
    // Still serving, and nothing leaked.
    expect((await server.request("after", "ping")).result).toEqual({});
    expect(leaks(server.lines.join("\n"))).toEqual([]);
    expect(server.stderr).toBe("");
  });
});
