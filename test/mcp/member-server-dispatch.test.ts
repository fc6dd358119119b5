// Quorum, race and debate steps run by the server end to end (docs/reference/runtime.md §23.16): the built
// stratum-mcp over stdio with the SDK client, its agent runner running a fake agent
// (STRATUM_AGENT_COMMAND, support/fake-agent.ts; a member's intent is `<mode> …`). A quorum whose
// runs agree advances at the poll after they settle; a race's winner cancels the candidate whose
// agent still runs (its process is killed), and the audit keeps the race.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { writeFakeAgent } from "./support/fake-agent";
import { callTool } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "./support/server";

type Plain = Record<string, unknown>;

const SPEC = `version: "0.3"
contracts:
  Done:
    done: {type: string}
flows:
  quorum:
    input: {}
    steps:
      - id: vote
        type: quorum
        intent: "ok vote"
        runs: 3
        agree_on: "len(result.done) > 0"
        output_contract: Done
      - id: after
        intent: "After"
        depends_on: [vote]
  race:
    input: {}
    steps:
      - id: fix
        type: race
        intent: "ok fix"
        candidates:
          - {id: slow, intent: "hang forever"}
          - {id: broken, intent: "fail on purpose"}
          - {id: quick}
        output_contract: Done
      - id: after
        intent: "After"
        depends_on: [fix]
  debate:
    input: {}
    steps:
      - id: design
        type: debate
        debaters:
          - {id: pro, intent: "ok for"}
          - {id: con, intent: "ok against"}
        rounds: 2
        argument_contract: Done
        synthesis: {intent: "Decide", output_contract: Done}
      - id: after
        intent: "After"
        depends_on: [design]
`;

describe("quorum and race members run by stratum-mcp", () => {
  let home: ReturnType<typeof tempDir>;
  let log: string;
  let s: RunningServer;
  const problems: string[] = [];

  beforeEach(async () => {
    home = tempDir("stratum-members-home-");
    log = join(home.path, "agent.log");
    writeFileSync(log, "");
    problems.length = 0;
    s = await startServer({
      cwd: home.path,
      home: home.path,
      // Every member at once whatever the machine's CPU count (the default cap): the race's
      // hanging candidate must not hold the only slot.
      env: {
        STRATUM_AGENT_COMMAND: writeFakeAgent(home.path),
        FAKE_AGENT_LOG: log,
        STRATUM_AGENT_ENV: "FAKE_AGENT_LOG",
        STRATUM_MAX_AGENTS: "3",
      },
    });
  });

  afterEach(async () => {
    if (s.child.exitCode === null && s.child.signalCode === null) await s.closeInput();
    for (const line of readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.startsWith("pid "))) {
      try {
        process.kill(-Number(line.slice(4)), "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    const stderr = s.stderr();
    home.dispose();
    expect(unexpectedStderr(stderr)).toBe("");
    expect(problems).toEqual([]);
  });

  async function call(name: string, args: Plain): Promise<Plain> {
    const answer = await callTool(s.client, name, args, problems);
    return wireToPlain(answer.response as never) as Plain;
  }

  /** Polls until the judgement is final (not null, not race_pending), at most 20 s. */
  async function judged(flowId: string, stepId: string): Promise<Plain> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const poll = await call("stratum_parallel_poll", { flow_id: flowId, step_id: stepId });
      const outcome = poll.outcome as Plain | null;
      if ((outcome !== null && outcome.status !== "race_pending") || Date.now() > deadline) return poll;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it("a quorum's runs agree: the poll after they settle advances the flow", async () => {
    const plan = await call("stratum_plan", { spec: SPEC, flow: "quorum", inputs: {} });
    const flowId = String(plan.flow_id);
    expect(await call("stratum_parallel_start", { flow_id: flowId, step_id: "vote" })).toEqual({
      status: "started",
      flow_id: flowId,
      step_id: "vote",
      task_count: 3,
      tasks: ["r1", "r2", "r3"],
    });
    const poll = await judged(flowId, "vote");
    expect(poll).toMatchObject({
      summary: { complete: 3 },
      can_advance: true,
      outcome: { status: "execute_step", step_id: "after", quorum: { winner: "r1", rejected: [] } },
    });
  });

  it("a race: the quick candidate wins, the hanging one is cancelled and its agent killed", async () => {
    const plan = await call("stratum_plan", { spec: SPEC, flow: "race", inputs: {} });
    const flowId = String(plan.flow_id);
    expect(await call("stratum_parallel_start", { flow_id: flowId, step_id: "fix" })).toMatchObject({
      status: "started",
      tasks: ["slow", "broken", "quick"],
    });
    const poll = await judged(flowId, "fix");
    expect(poll).toMatchObject({
      outcome: {
        status: "execute_step",
        step_id: "after",
        race: { winner: "quick", cancel: ["slow"] },
      },
    });
    const deadline = Date.now() + 10_000;
    let after = poll;
    while ((after.summary as Plain).cancelled !== 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      after = await call("stratum_parallel_poll", { flow_id: flowId, step_id: "fix" });
    }
    expect(after).toMatchObject({
      summary: { complete: 1, failed: 1, cancelled: 1 },
      outcome: { status: "already_advanced" },
    });
    expect(readFileSync(log, "utf8")).not.toContain("end slow");
    expect(await call("stratum_audit", { flow_id: flowId })).toMatchObject({
      race_outcomes: { fix: { winner: "quick", cancelled: ["slow"] } },
    });
  });

  it("a debate: each round started and judged by the server, then the synthesis reported by the agent", async () => {
    const plan = await call("stratum_plan", { spec: SPEC, flow: "debate", inputs: {} });
    const flowId = String(plan.flow_id);
    for (const round of [1, 2]) {
      expect(await call("stratum_parallel_start", { flow_id: flowId, step_id: "design" })).toMatchObject({
        status: "started",
        tasks: ["pro", "con"],
      });
      const poll = await judged(flowId, "design");
      expect(poll).toMatchObject({ summary: { complete: 2 }, require_satisfied: true });
      const outcome = poll.outcome as Plain;
      if (round === 1) expect(outcome).toMatchObject({ status: "parallel_dispatch", round: 2 });
      else expect(outcome).toMatchObject({ status: "execute_step", step_mode: "synthesis" });
    }
    const done = await call("stratum_step_done", {
      flow_id: flowId,
      step_id: "design",
      result: { done: "yes" },
    });
    expect(done).toMatchObject({ status: "execute_step", step_id: "after" });
    expect(await call("stratum_audit", { flow_id: flowId })).toMatchObject({
      debates: { design: { round: 2, phase: "done" } },
    });
  });
});
