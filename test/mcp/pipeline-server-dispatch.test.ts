// A pipeline run by the server (docs/reference/runtime.md §4.8, "Server-side dispatch") end to end:
// the built stratum-mcp over stdio with the SDK client, its process runner running a fake agent
// program (STRATUM_AGENT_COMMAND) that answers by the first word of its prompt. The pipeline has a
// `when` that skips a stage for one element, a fanout of at most 3 lanes filled by 2, and a join;
// poll reports the skipped tasks, and settles the step with the element aggregate once all ended.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { callTool } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

type Plain = Record<string, unknown>;

const SPEC = `version: "0.3"
flows:
  main:
    input: {docs: {type: array}}
    steps:
      - id: pipe
        type: pipeline
        source: "$.input.docs"
        isolation: none
        stages:
          - {intent_template: "triage {item}"}
          - {intent_template: "scan {prev}", when: "prev_raw['deep']"}
          - {intent_template: "split {item}", fanout: {max: 3, require: all}}
          - {intent_template: "map {item} of {source}"}
          - {intent_template: "join {prevs}", join: true}
`;

// Answers by the prompt's first word; every prompt is appended to the log (one line each).
const AGENT = `#!/bin/sh
prompt=$(cat)
printf '%s\\n' "$prompt" >> "$FAKE_AGENT_LOG"
set -- $prompt
case "$1" in
  triage) if [ "$2" = deep ]; then echo '{"deep": true}'; else echo '{"deep": false}'; fi ;;
  scan) echo '"scanned"' ;;
  split) echo '["x", "y"]' ;;
  map) echo "\\"$2\\"" ;;
  join) echo '{"joined": true}' ;;
  *) echo "unexpected prompt" >&2; exit 2 ;;
esac
`;

describe("a pipeline run server-side through stratum-mcp", () => {
  let home: ReturnType<typeof tempDir>;
  let log: string;
  let server: RunningServer | undefined;
  const problems: string[] = [];

  beforeEach(() => {
    home = tempDir("stratum-pipeline-server-");
    log = join(home.path, "prompts.log");
    writeFileSync(log, "");
    problems.length = 0;
  });

  afterEach(async () => {
    if (server !== undefined) await server.closeInput();
    const stderr = server?.stderr() ?? "";
    server = undefined;
    home.dispose();
    expect(unexpectedStderr(stderr)).toBe("");
    expect(problems).toEqual([]);
  });

  async function call(name: string, args: Plain): Promise<Plain> {
    if (server === undefined) throw new Error("no server");
    const answer = await callTool(server.client, name, args, problems);
    return wireToPlain(answer.response as never) as Plain;
  }

  it("runs the stages, skips by `when` and unfilled lanes, joins, and completes the flow", async () => {
    const agent = join(home.path, "agent.sh");
    writeFileSync(agent, AGENT);
    chmodSync(agent, 0o755);
    server = await startServer({
      cwd: home.path,
      home: home.path,
      env: { STRATUM_AGENT_COMMAND: agent, FAKE_AGENT_LOG: log, STRATUM_AGENT_ENV: "FAKE_AGENT_LOG" },
    });
    const plan = await call("stratum_plan", { spec: SPEC, flow: "main", inputs: { docs: ["deep", "flat"] } });
    expect(plan).toMatchObject({ status: "parallel_dispatch", step_id: "pipe", pipeline: true });
    const flowId = String(plan.flow_id);
    const started = await call("stratum_parallel_start", { flow_id: flowId, step_id: "pipe" });
    expect(started).toMatchObject({ status: "started", task_count: 14 });

    const deadline = Date.now() + 30_000;
    let poll: Plain;
    for (;;) {
      poll = await call("stratum_parallel_poll", { flow_id: flowId, step_id: "pipe" });
      if (poll.outcome !== null || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const tasks = poll.tasks as Record<string, Plain>;
    const states = Object.fromEntries(Object.entries(tasks).map(([id, t]) => [id, t.state]));
    expect(states).toEqual({
      "pipe::item0::stage0": "complete",
      "pipe::item0::stage1": "complete",
      "pipe::item0::stage2": "complete",
      "pipe::item0::stage3::lane0": "complete",
      "pipe::item0::stage3::lane1": "complete",
      "pipe::item0::stage3::lane2": "skipped",
      "pipe::item0::stage4": "complete",
      "pipe::item1::stage0": "complete",
      "pipe::item1::stage1": "skipped",
      "pipe::item1::stage2": "complete",
      "pipe::item1::stage3::lane0": "complete",
      "pipe::item1::stage3::lane1": "complete",
      "pipe::item1::stage3::lane2": "skipped",
      "pipe::item1::stage4": "complete",
    });
    // The skipped `when` stage passes its predecessor's result on; it never started an agent.
    expect(tasks["pipe::item1::stage1"]).toMatchObject({ result: { deep: false }, started_at: null });
    expect(poll.summary).toEqual({
      pending: 0,
      running: 0,
      complete: 11,
      failed: 0,
      cancelled: 0,
      skipped: 3,
      reparenting: 0,
    });
    expect(poll).toMatchObject({ require_satisfied: true, can_advance: true });
    expect(poll.outcome).toMatchObject({
      status: "complete",
      output: {
        items: [
          { item: "deep", status: "complete", result: { joined: true } },
          { item: "flat", status: "complete", result: { joined: true } },
        ],
        require_satisfied: true,
        outcome: "complete",
      },
    });
    const prompts = readFileSync(log, "utf8").trim().split("\n").sort();
    expect(prompts).toEqual(
      [
        "triage deep",
        "triage flat",
        'scan {"deep": true}',
        "split deep",
        "split flat",
        "map x of deep",
        "map y of deep",
        "map x of flat",
        "map y of flat",
        'join ["x", "y"]',
        'join ["x", "y"]',
      ].sort(),
    );
    // The step is settled: a later poll reports it as already advanced.
    const again = await call("stratum_parallel_poll", { flow_id: flowId, step_id: "pipe" });
    expect(again.outcome).toMatchObject({ status: "already_advanced" });
  }, 60_000);
});
