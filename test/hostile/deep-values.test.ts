// Deep and huge values through the real entry points. A result nested ~2,000
// levels was accepted and written, and afterwards `stratum_resume` after a restart and `stratumc
// query flow` died with "Maximum call stack size exceeded"; deeper, the call itself answered
// JSON-RPC -32603 with that text. Now every free-form argument past MAX_VALUE_DEPTH (512) or
// MAX_VALUE_COUNT is `invalid_arguments` naming it and the limit, nothing is written, and a result
// at exactly the limit is stored and stays loadable: by the server after a restart, by `query
// flow`, `query gates` and `gate`. Needs the build.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../host/file-store/file-store";
import { stratumc } from "../cli/run-cli";
import { RawSession, type RpcMessage, toolContent } from "../mcp/support/raw-session";
import { storedState } from "../support/stored-flow";
import { nestedText, resultText } from "./deep-support";
import { leaks, type Sandbox, sandbox } from "./mcp-support";

/** An infer step whose result is checked, then a gate; the flow ends on approve. */
const GATED = `version: "0.2"
contracts:
  Out:
    answer: {type: string}
functions:
  answer:
    mode: infer
    intent: "Answer"
    input: {}
    output: Out
  review:
    mode: gate
flows:
  main:
    input: {}
    steps:
      - id: s1
        function: answer
      - id: review
        function: review
        on_approve: ~
        on_revise: s1
        on_kill: ~
`;

const grouped = (n: number) => n.toLocaleString("en-US");
const tooDeep = (name: string, depth: number) =>
  `${name}: nested ${grouped(depth)} levels deep; the limit is 512`;

let box: Sandbox;
let server: RawSession;
let nextId = 0;

/** A tools/call whose `arguments` JSON text is given as is (deep values cannot be stringified). */
async function callRaw(name: string, argumentsText: string): Promise<RpcMessage> {
  const id = `call-${++nextId}`;
  server.writeLine(
    `{"jsonrpc": "2.0", "id": "${id}", "method": "tools/call", "params": {"name": "${name}", "arguments": ${argumentsText}}}`,
  );
  await server.until(() => server.answers(id).length > 0, `the answer to ${id}`, 60_000);
  return server.answers(id)[0] as RpcMessage;
}

async function plan(on: RawSession = server): Promise<string> {
  const answer = await on.request(`plan-${++nextId}`, "tools/call", {
    name: "stratum_plan",
    arguments: { spec: GATED, flow: "main" },
  });
  return toolContent(answer).flow_id as string;
}

/** Everything stored of a flow: its snapshot and its journal (when it has one). */
const flowFiles = (flowId: string) =>
  [".json", ".journal"].map((ext) => {
    const path = join(box.home, "flows", `${flowId}${ext}`);
    return existsSync(path) ? readFileSync(path, "latin1") : null;
  });

function expectRefused(answer: RpcMessage, message: string): void {
  expect(answer.result).toEqual({
    content: [
      {
        type: "text",
        text: `{\n  "status": "error",\n  "error_type": "invalid_arguments",\n  "message": ${JSON.stringify(message)}\n}`,
      },
    ],
    structuredContent: { status: "error", error_type: "invalid_arguments", message },
    isError: true,
  });
}

beforeAll(async () => {
  box = sandbox("stratum-hostile-deep-");
  server = new RawSession(box);
  await server.initialize();
});

afterAll(async () => {
  const code = await server.closeInput();
  expect(code).toBe(0);
  expect(leaks(server.lines.join("\n"))).toEqual([]);
  expect(server.stderr).toBe("");
  box.dispose();
});

describe("stratum_step_done with a deep result", () => {
  const cases = [1_000, 2_000, 3_000, 20_000].flatMap((depth) =>
    (["array", "object"] as const).map((kind) => [depth, kind] as const),
  );
  it.each(cases)(
    "%i levels of %s: invalid_arguments, nothing written, the flow goes on",
    async (depth, kind) => {
      const flowId = await plan();
      const before = flowFiles(flowId);
      const answer = await callRaw(
        "stratum_step_done",
        `{"flow_id": "${flowId}", "step_id": "s1", "result": ${resultText(depth, kind)}}`,
      );
      expectRefused(answer, tooDeep("result", depth));
      expect(flowFiles(flowId)).toEqual(before);
      const resumed = await callRaw("stratum_resume", `{"flow_id": "${flowId}"}`);
      expect(toolContent(resumed)).toMatchObject({ status: "execute_step", step_id: "s1" });
    },
  );
});

describe("a result at exactly the limit", () => {
  it("is accepted, and the flow loads in a restarted server, query flow, query gates and gate", async () => {
    const flowId = await plan();
    const over = await callRaw(
      "stratum_step_done",
      `{"flow_id": "${flowId}", "step_id": "s1", "result": ${resultText(513, "object")}}`,
    );
    expectRefused(over, tooDeep("result", 513));
    const done = await callRaw(
      "stratum_step_done",
      `{"flow_id": "${flowId}", "step_id": "s1", "result": ${resultText(512, "object")}}`,
    );
    expect(toolContent(done)).toMatchObject({ status: "await_gate", step_id: "review" });
    expect((await storedState(new FileFlowStore(box.home), flowId))?.current_idx).toBe(1);

    // A second server over the same store reads the flow from its file.
    const restarted = new RawSession(box);
    try {
      await restarted.initialize();
      const resumed = await restarted.request("resume", "tools/call", {
        name: "stratum_resume",
        arguments: { flow_id: flowId },
      });
      expect(toolContent(resumed)).toMatchObject({ status: "await_gate", step_id: "review" });
    } finally {
      await restarted.closeInput();
    }

    const env = { STRATUM_HOME: box.home };
    const detail = stratumc(["query", "flow", flowId], { env });
    expect(detail.stderr).toBe("");
    expect(detail.status).toBe(0);
    expect(JSON.parse(detail.stdout)).toMatchObject({ flow_id: flowId, status: "awaiting_gate" });
    expect((detail.stdout.match(/"a": \{/g) ?? []).length).toBeGreaterThanOrEqual(510); // the output, in full
    const gates = stratumc(["query", "gates"], { env });
    expect(gates.status).toBe(0);
    expect(gates.stdout).toContain(flowId);
    const approve = stratumc(["gate", "approve", flowId, "review"], { env });
    expect(approve.stderr).toBe("");
    expect(JSON.parse(approve.stdout)).toMatchObject({ ok: true, flow_id: flowId, outcome: "approve" });
    expect(JSON.parse(stratumc(["query", "flow", flowId], { env }).stdout)).toMatchObject({
      status: "complete",
    });
  });
});

describe("every other free-form argument", () => {
  it("is refused past the limits, naming the argument", async () => {
    const deep = nestedText(600, "array");
    expectRefused(
      await callRaw(
        "stratum_plan",
        `{"spec": ${JSON.stringify(GATED)}, "flow": "main", "inputs": {"x": ${deep}}}`,
      ),
      tooDeep("inputs", 601),
    );
    const flowId = await plan();
    expectRefused(
      await callRaw(
        "stratum_iteration_report",
        `{"flow_id": "${flowId}", "step_id": "s1", "result": ${deep}}`,
      ),
      tooDeep("result", 600),
    );
    expectRefused(
      await callRaw("stratum_draft_pipeline", `{"draft": {"phases": ${deep}}}`),
      tooDeep("draft", 601),
    );
    // An argument the tool does not have is still converted before the schema drops it.
    expectRefused(
      await callRaw("stratum_audit", `{"flow_id": "${flowId}", "junk": ${deep}}`),
      tooDeep("junk", 600),
    );
    expectRefused(await callRaw("stratum_audit", nestedText(50_000, "array")), tooDeep("arguments", 50_000));
    const many = `{"answer": "x", "items": [${new Array(1_000_000).fill("0").join(",")}]}`;
    expectRefused(
      await callRaw("stratum_step_done", `{"flow_id": "${flowId}", "step_id": "s1", "result": ${many}}`),
      "result: 1,000,003 values; the limit is 1,000,000",
    );
  });

  it("deep JSON anywhere else in a message (a stray response used to end the process) never gets -32603 or a stack, and the server keeps serving", async () => {
    const deep = nestedText(100_000, "object");
    server.writeLine(
      `{"jsonrpc": "2.0", "id": "meta", "method": "tools/call", "params": {"name": "stratum_audit", "arguments": {"flow_id": "x"}, "_meta": ${deep}, "extra": ${deep}}}`,
    );
    server.writeLine(`{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": ${deep}}`);
    server.writeLine(`{"jsonrpc": "2.0", "id": "stray", "result": ${deep}}`);
    server.writeLine(`{"jsonrpc": "2.0", "id": "ping-deep", "method": "ping", "params": {"_meta": ${deep}}}`);
    server.writeLine(
      `{"jsonrpc": "2.0", "id": "list-deep", "method": "tools/list", "params": {"cursor": ${deep}}}`,
    );
    await server.until(() => server.answers("list-deep").length > 0, "the tools/list answer", 60_000);
    expect(toolContent(server.answers("meta")[0] as RpcMessage)).toMatchObject({
      error_type: "flow_not_found",
    });
    // Requests other than tools/call carry no user values: refused past the limit.
    for (const id of ["ping-deep", "list-deep"]) {
      expect(server.answers(id)[0]?.error).toEqual({
        code: -32600,
        message: "Invalid Request: nested 100,002 levels deep; the limit is 512",
      });
    }
    expect((await server.request("after", "ping")).result).toEqual({});
    expect(server.lines.filter((l) => /-32603|Maximum call stack/.test(l))).toEqual([]);
  });
});
