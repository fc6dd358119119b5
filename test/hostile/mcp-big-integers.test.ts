// An integer beyond JSON's exact range (2**64 + 1) in a step's result. Python's json reads and
// writes it exactly, and the engine keeps it exactly (a bigint); the answer's text item carries it
// digit for digit. `structuredContent` is plain JSON data for JSON-only clients: there it is the
// nearest number. The old server put the bigint itself there, the transport could not write the
// answer, and the call was never answered.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawSession, toolContent } from "../mcp/support/raw-session";
import { type Sandbox, sandbox, tinySpec } from "./mcp-support";

const BIG = "18446744073709551617";

describe("an integer beyond JSON's exact range in a step result", () => {
  let box: Sandbox;
  let server: RawSession;

  beforeAll(async () => {
    box = sandbox("stratum-hostile-bigint-");
    server = new RawSession(box);
    await server.initialize();
  });

  afterAll(async () => {
    await server.closeInput();
    box.dispose();
  });

  it("is answered, exactly in the text item and as the nearest number in structuredContent", async () => {
    const spec = tinySpec().replace("answer: {type: string}", "answer: {type: integer}");
    const planned = toolContent(
      await server.request(1, "tools/call", {
        name: "stratum_plan",
        arguments: { spec, flow: "main", inputs: {} },
      }),
    );
    expect(planned.status).toBe("execute_step");
    // Written by hand: JSON.stringify cannot write the integer exactly.
    server.writeLine(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stratum_step_done","arguments":{"flow_id":${JSON.stringify(planned.flow_id)},"step_id":"s1","result":{"answer":${BIG}}}}}`,
    );
    const done = await server.next((m) => m.id === 2, 10_000);
    expect(done.result?.isError).toBe(false);
    const text = done.result?.content?.[0]?.text ?? "";
    expect(text).toContain(`"answer": ${BIG}`);
    const content = toolContent(done);
    expect(content.status).toBe("complete");
    expect(content.output).toEqual({ answer: Number(BIG) });
    // The server goes on answering.
    const audit = toolContent(
      await server.request(3, "tools/call", {
        name: "stratum_audit",
        arguments: { flow_id: planned.flow_id },
      }),
    );
    expect(audit.status).toBe("complete");
  });
});
