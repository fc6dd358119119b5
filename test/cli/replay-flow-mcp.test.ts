// A flow recorded through the built stratum-mcp (an MCP client driving the real server over stdio,
// a file store in a temporary STRATUM_HOME), then replayed by the built stratumc: against the spec
// it ran on, no divergence; against an edited route, the divergence at the route's line.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { edited, lineOf, V1 } from "../fuzzer/replay-flow/record";
import { startServer, tempDir } from "../mcp/support/server";
import { stratumc } from "./run-cli";

const dir = tempDir("stratumc-replay-mcp-");
const home = join(dir.path, "home");
const ROUTED = edited("on_revise: build", "on_revise: notes");
let flowId = "";

async function recordThroughServer(): Promise<string> {
  const server = await startServer({ cwd: dir.path, home });
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await server.client.callTool({ name, arguments: args });
    const [content] = result.content as { text: string }[];
    return JSON.parse(content?.text ?? "{}") as Record<string, unknown>;
  };
  try {
    const plan = await call("stratum_plan", { spec: V1, flow: "release", inputs: { version: "1.2.0" } });
    const flow_id = String(plan.flow_id);
    const done = (step_id: string, result: unknown) =>
      call("stratum_step_done", { flow_id, step_id, result });
    const gate = (outcome: string) =>
      call("stratum_gate_resolve", {
        flow_id,
        step_id: "sign_off",
        outcome,
        rationale: "",
        resolved_by: "human",
      });
    expect((await done("build", { artifact: "a.tgz", size: 4 })).status).toBe("execute_step");
    expect((await done("notes", { text: "n" })).status).toBe("await_gate");
    expect((await gate("revise")).status).toBe("execute_step");
    expect((await done("build", { artifact: "b.tgz", size: 9 })).status).toBe("execute_step");
    expect((await done("notes", { text: "m" })).status).toBe("await_gate");
    expect((await gate("approve")).status).toBe("execute_step");
    expect((await done("deploy", { url: "https://x" })).status).toBe("complete");
    return flow_id;
  } finally {
    await server.closeInput();
  }
}

beforeAll(async () => {
  writeFileSync(join(dir.path, "v1.stratum.yaml"), V1);
  writeFileSync(join(dir.path, "routed.stratum.yaml"), ROUTED);
  flowId = await recordThroughServer();
}, 60_000);
afterAll(() => dir.dispose());

describe("a flow recorded through stratum-mcp", () => {
  it("replays against its own spec without a divergence", () => {
    const r = stratumc(["replay", "--flow", flowId, "--spec", "v1.stratum.yaml", "--store", home], {
      cwd: dir.path,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      `flow ${flowId} (release, complete): no divergence (7 recorded answers replayed)`,
    );
  });

  it("reports a changed gate route at its line", () => {
    const r = stratumc(["replay", "--flow", flowId, "--spec", "routed.stratum.yaml", "--store", home], {
      cwd: dir.path,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`diverges at routed.stratum.yaml:${lineOf(ROUTED, "on_revise: notes")}:`);
    expect(r.stdout).toContain("route_changed");
  });
});
