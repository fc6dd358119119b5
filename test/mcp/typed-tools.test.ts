// Typed tools through the real SDK client over stdio against the built stratum-mcp: tools/list
// gives every tool its title, annotations and outputSchema exactly as the sources declare them, and
// the client (which validates every structuredContent against its tool's outputSchema, throwing on
// a mismatch) takes the answers of a whole flow, every tool's invalid_arguments answer and the
// documented errors. The client's own validator refuses an answer that breaks a schema.
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolList } from "../../mcp/server";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

const SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: integer}
functions:
  work:
    mode: infer
    intent: "Do the work"
    input: {}
    output: Out
    ensure:
      - "result.v > 0"
    retries: 2
  sign_off:
    mode: gate
flows:
  main:
    input: {}
    steps:
      - id: a
        function: work
        inputs: {}
      - id: approve
        function: sign_off
        on_approve: ~
        on_revise: a
        on_kill: ~
        depends_on: [a]
`;

type Plain = Record<string, unknown>;

describe("typed tools over stdio (built stratum-mcp, SDK client)", () => {
  const home = tempDir("stratum-mcp-typed-");
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ cwd: home.path, home: home.path });
  }, 60_000);

  afterAll(async () => {
    const code = await server.closeInput();
    home.dispose();
    expect(code).toBe(0);
    expect(unexpectedStderr(server.stderr())).toBe("");
  });

  const call = async (name: string, args: Plain): Promise<Plain> =>
    (await server.client.callTool({ name, arguments: args })).structuredContent as Plain;

  it("lists every tool with the title, annotations and outputSchema of the sources", async () => {
    const { tools } = await server.client.listTools();
    expect(tools).toHaveLength(25);
    const declared = toolList();
    for (const tool of tools) {
      const source = declared.find((t) => t.name === tool.name);
      expect(tool.title, tool.name).toBe(source?.title);
      expect(tool.annotations, tool.name).toEqual(source?.annotations);
      expect(tool.outputSchema, tool.name).toEqual(source?.outputSchema);
      expect(tool.outputSchema?.type, tool.name).toBe("object");
    }
  });

  it("drives a flow whose every answer the client validates", async () => {
    expect((await call("stratum_validate", { spec: SPEC })).valid).toBe(true);
    const plan = await call("stratum_plan", { spec: SPEC, flow: "main" });
    expect(plan.status).toBe("execute_step");
    const flow_id = plan.flow_id as string;
    expect((await call("stratum_commit", { flow_id, label: "start" })).status).toBe("committed");
    expect((await call("stratum_step_done", { flow_id, step_id: "a", result: { v: 0 } })).status).toBe(
      "ensure_failed",
    );
    expect((await call("stratum_step_done", { flow_id, step_id: "a", result: { v: 1 } })).status).toBe(
      "await_gate",
    );
    expect((await call("stratum_check_timeouts", { flow_id })).status).toBe("no_timeout");
    expect((await call("stratum_resume", { flow_id })).status).toBe("await_gate");
    expect((await call("stratum_revert", { flow_id, label: "start" })).reverted_to).toBe("start");
    await call("stratum_step_done", { flow_id, step_id: "a", result: { v: 2 } });
    const done = await call("stratum_gate_resolve", {
      flow_id,
      step_id: "approve",
      outcome: "approve",
      rationale: "fine",
      resolved_by: "human",
    });
    expect(done.status).toBe("complete");
    const audit = await call("stratum_audit", { flow_id });
    expect(audit.status).toBe("complete");
    expect((await call("stratum_list_workflows", {})).workflows).toEqual([]);
    expect((await call("stratum_draft_pipeline", { draft: { name: "p", phases: [] } })).status).toBe("saved");
    expect((await call("stratum_cancel_agent_run", { correlation_id: "none" })).status).toBe("not_found");
  });

  it("validates every tool's invalid_arguments answer (isError) and documented errors", async () => {
    for (const { name, inputSchema } of toolList()) {
      // The first parameter, of the wrong type (a number where a string goes, else a string).
      const [first, schema] = Object.entries(inputSchema.properties ?? {})[0] ?? [];
      if (first === undefined) throw new Error(`${name} has no parameters`);
      const wrong = (schema as Plain).type === "string" ? 7 : "x";
      const result = await server.client.callTool({ name, arguments: { [first]: wrong } });
      expect(result.isError, name).toBe(true);
      expect((result.structuredContent as Plain).error_type, name).toBe("invalid_arguments");
    }
    for (const name of ["stratum_audit", "stratum_resume", "stratum_check_timeouts"]) {
      expect((await call(name, { flow_id: "nope" })).error_type, name).toBe("flow_not_found");
    }
  });

  it("would refuse an answer that breaks its tool's schema (the client's own validator)", async () => {
    const { tools } = await server.client.listTools();
    const schema = tools.find((t) => t.name === "stratum_step_done")?.outputSchema;
    if (schema === undefined) throw new Error("no outputSchema for stratum_step_done");
    const validate = new AjvJsonSchemaValidator().getValidator(schema);
    expect(
      validate({ status: "execute_step", flow_id: "f", step_id: "a", step_number: 1, total_steps: 2 }).valid,
    ).toBe(true);
    expect(validate({ status: "execute_step", flow_id: "f" }).valid).toBe(false);
    expect(validate({ status: "error", message: "no error_type" }).valid).toBe(false);
    expect(validate({ status: "running" }).valid).toBe(false);
  });
});
