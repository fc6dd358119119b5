// The built stratum-mcp through an independent client: the MCP Inspector (0.15.0) in CLI mode,
// offline — `mcp-inspector --cli <server command> --method …`, one server process per call. The
// Inspector prints the result as JSON and exits 0 (also when a tool answers with an error), so the
// assertions are on its output.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "../cli/run-cli";
import { MCP_BIN, tempDir } from "./support/server";

const INSPECTOR = join(REPO, "node_modules/@modelcontextprotocol/inspector/cli/build/cli.js");
const run = promisify(execFile);

const EXAMPLE = readFileSync(join(REPO, "examples/code-review-gate.stratum.yaml"), "utf8");
const BROKEN = readFileSync(join(REPO, "examples/broken/unknown-step-id.stratum.yaml"), "utf8");

type Plain = Record<string, unknown>;

describe("MCP Inspector CLI against stratum-mcp", () => {
  const home = tempDir("stratum-mcp-inspector-");

  beforeAll(() => ensureBundle());
  afterAll(() => home.dispose());

  async function inspector(...args: string[]): Promise<Plain> {
    const { stdout } = await run(process.execPath, [INSPECTOR, "--cli", process.execPath, MCP_BIN, ...args], {
      cwd: home.path,
      env: { ...process.env, STRATUM_HOME: home.path },
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(stdout) as Plain;
  }

  /** tools/call through the Inspector; the tool's response object from its text content. */
  async function callTool(tool: string, ...pairs: string[]): Promise<{ result: Plain; response: Plain }> {
    const result = await inspector("--method", "tools/call", "--tool-name", tool, "--tool-arg", ...pairs);
    const content = result.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    expect(content[0]?.type).toBe("text");
    const response = JSON.parse(content[0]?.text ?? "") as Plain;
    expect(result.structuredContent).toEqual(response);
    return { result, response };
  }

  it("lists the twenty-five tools", async () => {
    const list = await inspector("--method", "tools/list");
    const tools = list.tools as { name: string; description: string; inputSchema: Plain }[];
    expect(tools.map((t) => t.name)).toEqual([
      "stratum_validate",
      "stratum_plan",
      "stratum_step_done",
      "stratum_audit",
      "stratum_gate_resolve",
      "stratum_check_timeouts",
      "stratum_skip_step",
      "stratum_commit",
      "stratum_revert",
      "stratum_iteration_start",
      "stratum_iteration_report",
      "stratum_iteration_abort",
      "stratum_resume",
      "stratum_parallel_done",
      "stratum_judge",
      "stratum_parallel_start",
      "stratum_parallel_poll",
      "stratum_parallel_advance",
      "stratum_list_workflows",
      "stratum_compile_speckit",
      "stratum_draft_pipeline",
      "stratum_agent_run",
      "stratum_cancel_agent_run",
      "stratum_fuzz",
      "stratum_gate_ask",
    ]);
    for (const tool of tools) expect(tool.inputSchema.type, tool.name).toBe("object");
  });

  it("validates an example spec (valid) and a broken one (errors with codes)", async () => {
    const good = await callTool("stratum_validate", `spec=${EXAMPLE}`);
    expect(good.result.isError).toBe(false);
    expect(good.response).toEqual({ valid: true, errors: [], warnings: [] });

    const bad = await callTool("stratum_validate", `spec=${BROKEN}`);
    expect(bad.result.isError).toBe(false);
    expect(bad.response.valid).toBe(false);
    const errors = bad.response.errors as Plain[];
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e).toMatchObject({ severity: "error", code: expect.any(String) });
  });

  it("plans the example's flow: the first step, and the flow saved in STRATUM_HOME", async () => {
    const { result, response } = await callTool(
      "stratum_plan",
      `spec=${EXAMPLE}`,
      "flow=review_loop",
      `inputs={"task": "add a --dry-run flag"}`,
    );
    expect(result.isError).toBe(false);
    const flowId = response.flow_id as string;
    expect(flowId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(response).toEqual({
      status: "execute_step",
      flow_id: flowId,
      step_number: 1,
      total_steps: 6,
      step_id: "write",
      step_mode: "function",
      function: "write_change",
      agent: null,
      mode: "infer",
      intent: "Implement the task on a new feature branch and summarise the diff",
      inputs: { task: "add a --dry-run flag" },
      output_contract: "Change",
      output_fields: { branch: "string", diff_summary: "string", files: "array" },
      ensure: ["result.branch.startswith('feature/')", "len(result.files) > 0"],
      retries_remaining: 3,
    });
    expect(readdirSync(join(home.path, "flows"))).toContain(`${flowId}.json`);

    // A later Inspector process (a new server) continues the same flow.
    const audit = await callTool("stratum_audit", `flow_id=${flowId}`);
    expect(audit.response).toMatchObject({
      flow_id: flowId,
      flow_name: "review_loop",
      status: "in_progress",
    });
  });

  it("shows invalid arguments as isError with the invalid_arguments text", async () => {
    const { result, response } = await callTool("stratum_plan", `spec=${EXAMPLE}`);
    expect(result.isError).toBe(true);
    expect(response).toEqual({
      status: "error",
      error_type: "invalid_arguments",
      message: "flow: missing required argument",
    });
  });

  it("lists the resources (the spec schema, the planned flow) and reads the flow", async () => {
    const list = await inspector("--method", "resources/list");
    const resources = list.resources as { uri: string; name: string; title?: string }[];
    expect(resources[0]?.uri).toBe("stratum://schema/stratum.schema.json");
    const flow = resources.find((r) => r.title === "review_loop");
    expect(flow?.uri).toBe(`stratum://flows/${flow?.name}`);
    const read = await inspector("--method", "resources/read", "--uri", flow?.uri ?? "");
    const contents = read.contents as { mimeType: string; text: string }[];
    expect(contents[0]?.mimeType).toBe("application/json");
    const body = JSON.parse(contents[0]?.text ?? "") as { flow: Plain; audit: Plain };
    expect(body.flow).toMatchObject({ flow_id: flow?.name, flow_name: "review_loop" });
    expect(body.audit).toMatchObject({ flow_id: flow?.name, status: "in_progress" });
    const templates = await inspector("--method", "resources/templates/list");
    expect((templates.resourceTemplates as Plain[]).map((t) => t.uriTemplate)).toEqual([
      "stratum://flows/{flow_id}",
    ]);
  });

  it("lists the bundled skills as prompts and gets one", async () => {
    const list = await inspector("--method", "prompts/list");
    const names = (list.prompts as { name: string }[]).map((p) => p.name);
    expect(names).toHaveLength(11);
    expect(names).toContain("stratum-review");
    const got = await inspector(
      "--method",
      "prompts/get",
      "--prompt-name",
      "stratum-review",
      "--prompt-args",
      "request=src/",
    );
    const messages = got.messages as { role: string; content: { type: string; text: string } }[];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe("user");
    expect(messages[0]?.content.text).toMatch(
      /^# Review code in three passes with Stratum\n[\s\S]*## The request\n\nsrc\/\n$/,
    );
  });
});
