// A pipeline's stage settings on the server path (docs/reference/runtime.md §4.8) that the recorded
// runs do not show: each stage's own agent and task_timeout reach the runner (else the step's), a
// stage certificate is appended to the prompt and fails a result without its sections, start's
// answers for an empty source and branch isolation, and advance on a pipeline (which never defers).
import { describe, expect, it } from "vitest";
import { nodeWorkspace } from "../../../host/node-workspace";
import { createEngine, type EngineApi } from "../../../interpreter/engine/create-api";
import type { ParallelTaskOutcome, ParallelTaskRequest } from "../../../interpreter/flow/parallel-runner";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { fromJsonValue } from "../../../stdlib/values/json";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";
import { planOk } from "./api-fixtures";

class Runner {
  readonly requests: ParallelTaskRequest[] = [];
  async runTask(request: ParallelTaskRequest): Promise<ParallelTaskOutcome> {
    this.requests.push(request);
    await new Promise((r) => setImmediate(r));
    return { ok: true, result: fromJsonValue({ artifact: "no sections here" }) };
  }
}

function engine(runner: Runner): EngineApi {
  return createEngine({
    store: new MemoryStore(),
    clock: new ManualClock(),
    ids: new SequentialIds(),
    cwd: "/work/project",
    files: () => null,
    workspace: nodeWorkspace,
    verifyEdits: true,
    parallelRunner: runner,
    parallelTimer: () => () => undefined,
  });
}

const spec = (keys: string) => `version: "0.3"
flows:
  main:
    input: {files: {type: array}}
    steps:
      - id: pipe
        type: pipeline
        source: "$.input.files"
        agent: claude
        task_timeout: 60
${keys}        stages:
          - {agent: codex, intent_template: "extract {item}", task_timeout: 5}
          - intent_template: "review {prev_raw}"
            task_reasoning_template: {require_citations: false}
`;

const plain = (r: unknown) => wireToPlain(r as never) as Record<string, unknown>;

describe("a pipeline's stages on the server path", () => {
  it("gives each stage its agent, time limit and certificate", async () => {
    const runner = new Runner();
    const api = engine(runner);
    const plan = await planOk(api, spec("        isolation: none\n"), "main", `{"files": ["a.py"]}`);
    const flow_id = String(plan.flow_id);
    expect(plain(await api.parallelStart({ flow_id, step_id: "pipe" }))).toMatchObject({ status: "started" });
    await api.parallelSettled();
    expect(runner.requests.map((r) => [r.taskId, r.agent, r.timeoutSeconds, r.isolation])).toEqual([
      ["pipe::item0::stage0", "codex", 5, "none"],
      ["pipe::item0::stage1", "claude", 60, "none"],
    ]);
    expect(runner.requests[0]?.prompt).toBe("extract a.py");
    expect(runner.requests[1]?.prompt).toContain("review {'artifact': 'no sections here'}");
    expect(runner.requests[1]?.prompt).toContain("You MUST structure your response with these sections:");
    const poll = plain(await api.parallelPoll({ flow_id, step_id: "pipe" }));
    expect(poll.tasks).toMatchObject({
      "pipe::item0::stage0": { state: "complete" },
      "pipe::item0::stage1": { state: "failed", error: "certificate validation failed" },
    });
    expect(poll).toMatchObject({ require_satisfied: false, outcome: { status: "ensure_failed" } });
    expect(
      plain(await api.parallelAdvance({ flow_id, step_id: "pipe", merge_status: "clean" })),
    ).toMatchObject({
      error_type: "advance_not_deferred",
    });
  });

  it("answers no_tasks for an empty source and refuses branch isolation, changing nothing", async () => {
    const api = engine(new Runner());
    const empty = await planOk(api, spec(""), "main", `{"files": []}`);
    expect(plain(await api.parallelStart({ flow_id: String(empty.flow_id), step_id: "pipe" }))).toMatchObject(
      {
        error_type: "no_tasks",
        message: "Step 'pipe' source resolved to zero tasks.",
      },
    );
    const branch = await planOk(api, spec("        isolation: branch\n"), "main", `{"files": ["a.py"]}`);
    expect(
      plain(await api.parallelStart({ flow_id: String(branch.flow_id), step_id: "pipe" })),
    ).toMatchObject({
      error_type: "branch_isolation_unsupported",
    });
    expect(plain(await api.parallelPoll({ flow_id: String(branch.flow_id), step_id: "pipe" }))).toMatchObject(
      {
        error_type: "not_dispatched",
      },
    );
  });
});
