// STRATUM_REFERENCE_FLOW_FILES=1 through the built stratum-mcp: `<id>.json` is current after every
// call, as the reference's flow file is (its tests and its dashboard read current_idx,
// step_outputs, attempts and records mid-flow); without it the snapshot lags behind the journal.
// (docs/design/decisions/compatibility.md, "The flow file".)
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { callTool } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

type Plain = Record<string, unknown>;

const SPEC = `version: "0.1"
contracts:
  Label:
    label: {type: string}
functions:
  classify:
    mode: infer
    intent: "Classify"
    input: {text: {type: string}}
    output: Label
    ensure: ["result.label != 'bad'"]
    retries: 3
flows:
  run:
    input: {text: {type: string}}
    output: Label
    steps:
      - id: s1
        function: classify
        inputs: {text: "$.input.text"}
      - id: s2
        function: classify
        inputs: {text: "$.input.text"}
`;

describe("the reference's flow file", () => {
  let server: RunningServer | undefined;
  let home: ReturnType<typeof tempDir> | undefined;
  const problems: string[] = [];

  afterEach(async () => {
    if (server !== undefined) {
      await server.closeInput();
      expect(unexpectedStderr(server.stderr())).toBe("");
    }
    home?.dispose();
    expect(problems).toEqual([]);
  });

  async function midFlow(env: Record<string, string>): Promise<{ file: Plain; journal: boolean }> {
    home = tempDir("stratum-flow-files-");
    server = await startServer({ cwd: home.path, home: home.path, env });
    const call = async (name: string, args: Plain) =>
      wireToPlain(
        (await callTool((server as RunningServer).client, name, args, problems)).response as never,
      ) as Plain;
    const plan = await call("stratum_plan", { spec: SPEC, flow: "run", inputs: { text: "hello" } });
    const flowId = String(plan.flow_id);
    expect(
      await call("stratum_step_done", { flow_id: flowId, step_id: "s1", result: { label: "bad" } }),
    ).toMatchObject({
      status: "ensure_failed",
    });
    expect(
      await call("stratum_step_done", { flow_id: flowId, step_id: "s1", result: { label: "positive" } }),
    ).toMatchObject({
      status: "execute_step",
      step_id: "s2",
    });
    const flows = join(home.path, "flows");
    const file = JSON.parse(readFileSync(join(flows, `${flowId}.json`), "utf8")) as Plain;
    return { file, journal: existsSync(join(flows, `${flowId}.journal`)) };
  }

  it("is current after every call with STRATUM_REFERENCE_FLOW_FILES=1", async () => {
    const { file, journal } = await midFlow({ STRATUM_REFERENCE_FLOW_FILES: "1" });
    expect(journal).toBe(false);
    expect(file).toMatchObject({
      flow_name: "run",
      current_idx: 1,
      step_outputs: { s1: { label: "positive" } },
      attempts: { s1: 2 },
    });
    expect((file.records as Plain[]).map((r) => r.step_id)).toEqual(["s1"]);
  });

  it("lags behind the journal without it", async () => {
    const { file, journal } = await midFlow({});
    expect(journal).toBe(true);
    expect(file).toMatchObject({ current_idx: 0, step_outputs: {} });
  });
});
