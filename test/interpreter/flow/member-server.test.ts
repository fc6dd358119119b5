// Quorum and race steps run server-side (docs/reference/runtime.md §23.16): stratum_parallel_start runs the
// members over the agent runner (each with its own intent and agent, no worktree), poll judges a
// quorum once every run settled and a race at each poll with newly settled candidates; a race's
// winner cancels the candidates still running (their agent is aborted at once).
import { describe, expect, it } from "vitest";
import { nodeWorkspace } from "../../../host/node-workspace";
import { createEngine, type EngineApi } from "../../../interpreter/engine/create-api";
import type { ParallelTaskOutcome, ParallelTaskRequest } from "../../../interpreter/flow/parallel-runner";
import { MemoryStore } from "../../../interpreter/store/memory-store";
import { parseJson } from "../../../stdlib/values/json";
import { ManualClock } from "../support/manual-clock";
import { SequentialIds } from "../support/sequential-ids";
import { plain, planOk, stored } from "./api-fixtures";
import { text } from "./fixtures";

type Plain = Record<string, unknown>;
const obj = (r: Parameters<typeof plain>[0]): Plain => plain(r) as Plain;

/** A runner whose members answer the JSON text given for their id; "hang" waits for the abort. */
function engine(
  answers: Record<string, string>,
  seen: ParallelTaskRequest[] = [],
  aborted: string[] = [],
  store = new MemoryStore(),
): EngineApi {
  const runner = {
    async runTask(request: ParallelTaskRequest, signal: AbortSignal): Promise<ParallelTaskOutcome> {
      seen.push(request);
      const answer = answers[request.taskId] ?? "{}";
      if (answer === "hang") {
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
        aborted.push(request.taskId);
        return { ok: false, error: "aborted" };
      }
      await turn(); // an answer comes after the call, as an agent's does, but no time passes
      return answer === "fail"
        ? { ok: false, error: "agent crashed" }
        : { ok: true, result: parseJson(answer) };
    },
  };
  return createEngine({
    store,
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

/** One turn of the event loop. */
const turn = () => new Promise<void>((r) => setImmediate(r));

/** Turns of the event loop until the store holds the tasks as complete (no waiting on the clock). */
async function untilComplete(store: MemoryStore, flowId: string, taskIds: readonly string[]): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    const entries = (await stored(store, flowId)).parallel_tasks;
    if (taskIds.every((t) => text(entries.get(t) ?? null).includes('"state": "complete"'))) return;
    await turn();
  }
  throw new Error(`tasks ${taskIds.join(", ")} never completed`);
}

const QUORUM = `version: "0.3"
contracts:
  Classification:
    severity: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: classify
        type: quorum
        agent: claude
        intent: "Classify the ticket"
        runs: 3
        agree_on: "result.severity"
        output_contract: Classification
      - id: route
        intent: "Route {s}"
        inputs: {s: "$.steps.classify.output.severity"}
        depends_on: [classify]
`;

const RACE = `version: "0.3"
contracts:
  Patch:
    tests_pass: {type: boolean}
flows:
  main:
    input: {}
    steps:
      - id: fix
        type: race
        intent: "Fix it"
        candidates:
          - {id: slow, agent: claude}
          - {id: bad, agent: codex, intent: "Rewrite it"}
          - {id: good, agent: codex}
        output_contract: Patch
        ensure: ["result.tests_pass"]
      - id: apply
        intent: "Apply"
        depends_on: [fix]
`;

async function started(api: EngineApi, spec: string, step: string): Promise<string> {
  const id = String((await planOk(api, spec)).flow_id);
  expect(obj(await api.parallelStart({ flow_id: id, step_id: step }))).toMatchObject({ status: "started" });
  return id;
}

describe("quorum run by the server", () => {
  it("runs every run with the step's intent and agent, then poll judges the votes and advances", async () => {
    const seen: ParallelTaskRequest[] = [];
    const api = engine(
      { r1: `{"severity": "high"}`, r2: `{"severity": "low"}`, r3: `{"severity": "high"}` },
      seen,
    );
    const id = await started(api, QUORUM, "classify");
    await api.parallelSettled();
    expect(seen.map((r) => [r.taskId, r.prompt, r.agent, r.isolation])).toEqual([
      ["r1", "Classify the ticket", "claude", "none"],
      ["r2", "Classify the ticket", "claude", "none"],
      ["r3", "Classify the ticket", "claude", "none"],
    ]);
    const poll = obj(await api.parallelPoll({ flow_id: id, step_id: "classify" }));
    expect(poll).toMatchObject({
      summary: { complete: 3 },
      require_satisfied: true,
      can_advance: true,
      outcome: { status: "execute_step", step_id: "route", inputs: { s: "high" }, quorum: { winner: "r1" } },
    });
    expect(obj(await api.parallelPoll({ flow_id: id, step_id: "classify" }))).toMatchObject({
      outcome: { status: "already_advanced" },
    });
  });

  it("no agreement among the settled runs fails the attempt like the consumer path", async () => {
    const api = engine({ r1: `{"severity": "a"}`, r2: `{"severity": "b"}`, r3: "fail" });
    const id = await started(api, QUORUM, "classify");
    await api.parallelSettled();
    expect(obj(await api.parallelPoll({ flow_id: id, step_id: "classify" }))).toMatchObject({
      require_satisfied: false,
      outcome: {
        status: "error",
        error_type: "retries_exhausted",
        violations: [
          "no quorum on 'result.severity': best 'a' 1 of 3, threshold 2",
          "run 'r3': failed: agent crashed",
        ],
      },
    });
  });
});

describe("race run by the server", () => {
  it("the first passing candidate wins at a poll; the one still running is aborted", async () => {
    const seen: ParallelTaskRequest[] = [];
    const aborted: string[] = [];
    const store = new MemoryStore();
    const api = engine(
      { slow: "hang", bad: `{"tests_pass": false}`, good: `{"tests_pass": true}` },
      seen,
      aborted,
      store,
    );
    const id = await started(api, RACE, "fix");
    // bad and good finish; slow waits for its abort.
    await untilComplete(store, id, ["bad", "good"]);
    expect(seen.map((r) => [r.taskId, r.prompt, r.agent])).toEqual([
      ["slow", "Fix it", "claude"],
      ["bad", "Rewrite it", "codex"],
      ["good", "Fix it", "codex"],
    ]);
    const poll = obj(await api.parallelPoll({ flow_id: id, step_id: "fix" }));
    expect(poll).toMatchObject({
      summary: { running: 1, complete: 2 },
      can_advance: true,
      outcome: {
        status: "execute_step",
        step_id: "apply",
        race: {
          winner: "good",
          cancel: ["slow"],
          rejected: [{ id: "bad", violations: ["ensure_failed: ensure 'result.tests_pass' failed"] }],
        },
      },
    });
    await api.parallelSettled();
    expect(aborted).toEqual(["slow"]);
    expect(obj(await api.parallelPoll({ flow_id: id, step_id: "fix" }))).toMatchObject({
      summary: { complete: 2, cancelled: 1 },
      outcome: { status: "already_advanced" },
    });
  });

  it("a poll before any candidate settled judges nothing; every candidate rejected loses the race", async () => {
    const api = engine({ slow: `{"tests_pass": false}`, bad: "fail", good: `{"tests_pass": false}` });
    const id = await started(api, RACE, "fix");
    await api.parallelSettled();
    expect(obj(await api.parallelPoll({ flow_id: id, step_id: "fix" }))).toMatchObject({
      can_advance: false,
      outcome: {
        status: "error",
        error_type: "retries_exhausted",
        violations: [
          "race lost: candidate 'slow': ensure_failed: ensure 'result.tests_pass' failed",
          "race lost: candidate 'bad': failed: agent crashed",
          "race lost: candidate 'good': ensure_failed: ensure 'result.tests_pass' failed",
        ],
      },
    });
  });
});

const DEBATE = `version: "0.3"
contracts:
  Argument:
    position: {type: string}
  Decision:
    choice: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: design
        type: debate
        debaters:
          - {id: pro, agent: claude, intent: "Argue for"}
          - {id: con, agent: codex, intent: "Argue against"}
        rounds: 2
        argument_contract: Argument
        synthesis: {intent: "Decide", output_contract: Decision}
      - id: build
        intent: "Build"
        depends_on: [design]
`;

describe("debate rounds run by the server", () => {
  it("each round is started, run and judged at the poll; then the synthesis is the agent's", async () => {
    const seen: ParallelTaskRequest[] = [];
    const api = engine({ pro: `{"position": "events"}`, con: `{"position": "tables"}` }, seen);
    const id = await started(api, DEBATE, "design");
    await api.parallelSettled();
    const first = obj(await api.parallelPoll({ flow_id: id, step_id: "design" }));
    expect(first).toMatchObject({
      summary: { complete: 2 },
      require_satisfied: true,
      outcome: { status: "parallel_dispatch", step_mode: "debate", round: 2 },
    });
    expect(seen.map((r) => [r.taskId, r.agent])).toEqual([
      ["pro", "claude"],
      ["con", "codex"],
    ]);
    expect(seen[0]?.prompt).toContain("Debate round 1 of 2; you are 'pro'.");
    // Round 2: started again; the debaters see round 1's arguments.
    expect(obj(await api.parallelStart({ flow_id: id, step_id: "design" }))).toMatchObject({
      status: "started",
    });
    await api.parallelSettled();
    expect(seen[2]?.prompt).toContain('- con: {"position": "tables"}');
    expect(obj(await api.parallelPoll({ flow_id: id, step_id: "design" }))).toMatchObject({
      outcome: { status: "execute_step", step_mode: "synthesis" },
    });
    expect(obj(await api.parallelStart({ flow_id: id, step_id: "design" }))).toMatchObject({
      status: "error",
      error_type: "wrong_step_type",
    });
    const done = await api.stepDone({
      flow_id: id,
      step_id: "design",
      result: parseJson(`{"choice": "events"}`),
    });
    expect(obj(done)).toMatchObject({ status: "execute_step", step_id: "build" });
  });

  it("a debater whose agent fails: the round is judged failed and started again", async () => {
    const api = engine({ pro: `{"position": "events"}`, con: "fail" });
    const id = await started(api, DEBATE.replace("rounds: 2", "rounds: 2\n        retries: 2"), "design");
    await api.parallelSettled();
    expect(obj(await api.parallelPoll({ flow_id: id, step_id: "design" }))).toMatchObject({
      require_satisfied: false,
      outcome: { status: "ensure_failed", round: 1, violations: ["debater 'con': failed: agent crashed"] },
    });
    expect(obj(await api.parallelStart({ flow_id: id, step_id: "design" }))).toMatchObject({
      status: "started",
    });
  });
});
