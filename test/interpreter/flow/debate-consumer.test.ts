// Debate steps (stratumc's extension, docs/reference/runtime.md §23.15) through the in-process engine,
// consumer path: the round payloads with the history, rounds to the synthesis, early convergence,
// a failing argument retried and exhausted, a raising converge, the synthesis's own attempts, the
// refused calls, the progress kept in judge_outcome, resume, restarts and a route back.
import { describe, expect, it } from "vitest";
import type { StratumApi } from "../../../interpreter/api";
import { wireToPlain } from "../../../interpreter/wire/encode";
import type { Response } from "../../../interpreter/wire/wire";
import { harness, plain, planOk, result, stored } from "./api-fixtures";

interface SpecOptions {
  readonly rounds?: number;
  readonly converge?: string;
  readonly retries?: number;
  readonly synthesisRetries?: number;
  readonly extra?: string;
  readonly after?: string;
}

function spec(o: SpecOptions = {}): string {
  return `version: "0.3"
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
        agent: claude
        intent: "Argue your side"
        debaters:
          - {id: pro, intent: "Argue for event sourcing"}
          - {id: con, agent: codex}
        rounds: ${o.rounds ?? 3}
        argument_contract: Argument
${o.converge === undefined ? "" : `        converge: ${JSON.stringify(o.converge)}\n`}        synthesis:
          intent: "Weigh the arguments and decide"
          output_contract: Decision
          retries: ${o.synthesisRetries ?? 1}
        ensure: ["result.choice != 'undecided'"]
        retries: ${o.retries ?? 1}
${o.extra ?? ""}      - id: report
        intent: "Report"
        depends_on: [design]
${o.after ?? ""}`;
}

const arg = (id: string, position: string) =>
  `{"task_id": "${id}", "status": "complete", "result": {"position": "${position}"}}`;

function round(api: StratumApi, flowId: string, entries: string[]): Promise<Response> {
  return api.parallelDone({
    flow_id: flowId,
    step_id: "design",
    task_results: result(`[${entries.join(", ")}]`),
    merge_status: "clean",
  });
}

function synthesise(api: StratumApi, flowId: string, choice: string | null): Promise<Response> {
  const r = choice === null ? result("{}") : result(`{"choice": "${choice}"}`);
  return api.stepDone({ flow_id: flowId, step_id: "design", result: r });
}

async function start(api: StratumApi, s: string): Promise<string> {
  return String((await planOk(api, s)).flow_id);
}

async function debateState(h: ReturnType<typeof harness>, id: string): Promise<unknown> {
  return wireToPlain((await stored(h.store, id)).judge_outcome.get("design") ?? null);
}

describe("debate payloads", () => {
  it("round 1 is a parallel_dispatch payload with step_mode debate, one task per debater", async () => {
    const h = harness();
    const plan = plain(await planOk(h.api, spec()));
    expect(plan).toMatchObject({
      status: "parallel_dispatch",
      step_id: "design",
      step_mode: "debate",
      agent: "claude",
      max_concurrent: 2,
      round: 1,
      rounds: 3,
      history: [],
      argument_contract: "Argument",
      argument_fields: { position: "string" },
      converge: null,
      retries_remaining: 1,
    });
    const tasks = (plan as { tasks: { id: string; agent: string | null; intent: string }[] }).tasks;
    expect(tasks.map((t) => [t.id, t.agent])).toEqual([
      ["pro", "claude"],
      ["con", "codex"],
    ]);
    expect(tasks[0]?.intent).toBe(
      "Argue for event sourcing\n\nDebate round 1 of 3; you are 'pro'.\nNo arguments yet: this is the opening round.",
    );
    expect(tasks[1]?.intent.startsWith("Argue your side\n")).toBe(true);
  });

  it("a later round carries the history, as data and rendered into each intent", async () => {
    const h = harness();
    const id = await start(h.api, spec());
    const next = plain(await round(h.api, id, [arg("pro", "events"), arg("con", "tables")]));
    expect(next).toMatchObject({
      status: "parallel_dispatch",
      round: 2,
      history: [
        [
          { id: "pro", argument: { position: "events" } },
          { id: "con", argument: { position: "tables" } },
        ],
      ],
    });
    const tasks = (next as { tasks: { intent: string }[] }).tasks;
    expect(tasks[1]?.intent).toBe(
      'Argue your side\n\nDebate round 2 of 3; you are \'con\'.\nArguments so far:\nRound 1:\n- pro: {"position": "events"}\n- con: {"position": "tables"}',
    );
  });
});

describe("debate rounds and synthesis", () => {
  it("two debaters over three rounds, then the synthesis is the step's result", async () => {
    const h = harness();
    const id = await start(h.api, spec());
    await round(h.api, id, [arg("pro", "a1"), arg("con", "b1")]);
    await round(h.api, id, [arg("con", "b2"), arg("pro", "a2")]); // any order in the batch
    const synthesis = plain(await round(h.api, id, [arg("pro", "a3"), arg("con", "b3")]));
    expect(synthesis).toMatchObject({
      status: "execute_step",
      step_id: "design",
      step_mode: "synthesis",
      intent: "Weigh the arguments and decide",
      agent: "claude",
      output_contract: "Decision",
      output_fields: { choice: "string" },
      ensure: ["result.choice != 'undecided'"],
      rounds_played: 3,
      converged: false,
      retries_remaining: 1,
    });
    const history = (synthesis as { history: { id: string }[][] }).history;
    expect(history.map((r) => r.map((a) => a.id))).toEqual([
      ["pro", "con"],
      ["pro", "con"],
      ["pro", "con"],
    ]);
    const next = plain(await synthesise(h.api, id, "events"));
    expect(next).toMatchObject({ status: "execute_step", step_id: "report" });
    const state = await stored(h.store, id);
    expect(wireToPlain(state.step_outputs.get("design") ?? null)).toEqual({ choice: "events" });
    expect(state.records).toMatchObject([{ step_id: "design", step_mode: "debate", attempts: 1 }]);
    expect(await debateState(h, id)).toMatchObject({ round: 3, rounds: 3, phase: "done", converged: false });
    const audit = plain(await h.api.audit({ flow_id: id }));
    expect(audit).toMatchObject({ debates: { design: { round: 3, phase: "done" } } });
  });

  it("converges in round 2: converge sees round, history (this round last) and round_number", async () => {
    const h = harness();
    const converge = "round_number == len(history) and all(a.position == round[0].position for a in round)";
    const id = await start(h.api, spec({ converge }));
    expect(plain(await round(h.api, id, [arg("pro", "x"), arg("con", "y")]))).toMatchObject({ round: 2 });
    const synthesis = plain(await round(h.api, id, [arg("pro", "x"), arg("con", "x")]));
    expect(synthesis).toMatchObject({ step_mode: "synthesis", rounds_played: 2, converged: true });
    expect(await debateState(h, id)).toMatchObject({ round: 2, converged: true, phase: "synthesis" });
    expect(plain(await synthesise(h.api, id, "x"))).toMatchObject({ step_id: "report" });
  });

  it("a debater failing its contract: the round is dispatched again, then passes", async () => {
    const h = harness();
    const id = await start(h.api, spec({ retries: 2 }));
    const bad = `{"task_id": "con", "status": "complete", "result": {"stance": 1}}`;
    const again = plain(await round(h.api, id, [arg("pro", "a"), bad]));
    expect(again).toMatchObject({
      status: "ensure_failed",
      step_mode: "debate",
      round: 1,
      history: [],
      retries_remaining: 1,
    });
    const violations = (again as { violations: string[] }).violations;
    expect(violations).toHaveLength(1);
    expect(violations[0]).toBe(
      "debater 'con': contract violation: missing required field 'position' (contract 'Argument')",
    );
    expect(await debateState(h, id)).toMatchObject({ round: 0, failed: { con: violations[0]?.slice(15) } });
    const next = plain(await round(h.api, id, [arg("pro", "a"), arg("con", "b")]));
    expect(next).toMatchObject({ status: "parallel_dispatch", round: 2, retries_remaining: 2 });
    expect(await debateState(h, id)).toMatchObject({ round: 1, failed: {} });
  });

  it("a failed or missing debater exhausts the round: retries_exhausted with a record", async () => {
    const h = harness();
    const id = await start(h.api, spec());
    const failed = `{"task_id": "pro", "status": "failed", "error": "timeout"}`;
    expect(plain(await round(h.api, id, [failed]))).toMatchObject({
      status: "error",
      error_type: "retries_exhausted",
      step_mode: "debate",
      violations: ["debater 'pro': failed: timeout", "debater 'con': not reported"],
    });
    const state = await stored(h.store, id);
    expect(state.records).toMatchObject([{ step_id: "design", step_mode: "debate", attempts: 1 }]);
    expect(await debateState(h, id)).toMatchObject({ phase: "failed" });
  });

  it("exhaustion with on_fail routes there", async () => {
    const h = harness();
    const s = spec({ extra: "        on_fail: fallback\n" }).replace(
      "        depends_on: [design]\n",
      '        depends_on: [design]\n      - id: fallback\n        intent: "Decide by hand"\n',
    );
    const id = await start(h.api, s);
    const next = plain(await round(h.api, id, [arg("pro", "a")]));
    expect(next).toMatchObject({ status: "execute_step", step_id: "fallback", routed_from: "design" });
  });

  it("a raising converge fails the round with the converge's message", async () => {
    const h = harness();
    const id = await start(h.api, spec({ converge: "round[5].position == 'x'", retries: 2 }));
    const again = plain(await round(h.api, id, [arg("pro", "a"), arg("con", "b")]));
    expect(again).toMatchObject({
      status: "ensure_failed",
      round: 1,
      violations: [`converge "round[5].position == 'x'" raised: list index out of range`],
    });
  });

  it("the synthesis has its own attempts, checked against its contract and the step's ensure", async () => {
    const h = harness();
    const id = await start(h.api, spec({ rounds: 1, synthesisRetries: 2 }));
    await round(h.api, id, [arg("pro", "a"), arg("con", "b")]);
    const again = plain(await synthesise(h.api, id, "undecided"));
    expect(again).toMatchObject({
      status: "ensure_failed",
      step_mode: "synthesis",
      violations: ["ensure 'result.choice != 'undecided'' failed"],
      retries_remaining: 1,
    });
    const exhausted = plain(await synthesise(h.api, id, null));
    expect(exhausted).toMatchObject({
      status: "error",
      error_type: "retries_exhausted",
      step_mode: "debate",
    });
    expect((exhausted as { violations: string[] }).violations.length).toBeGreaterThan(0);
    expect(await debateState(h, id)).toMatchObject({ phase: "failed", round: 1 });
  });
});

describe("refused calls", () => {
  it("unknown or repeated debaters are invalid_arguments naming them; nothing is committed", async () => {
    const h = harness();
    const id = await start(h.api, spec());
    expect(plain(await round(h.api, id, [arg("judge", "a")]))).toMatchObject({
      status: "error",
      error_type: "invalid_arguments",
      message: "task_results[0].task_id: 'judge' is not a debater of debate step 'design' (pro, con)",
    });
    expect(plain(await round(h.api, id, [arg("pro", "a"), arg("pro", "b")]))).toMatchObject({
      error_type: "invalid_arguments",
      message: "task_results[1].task_id: debater 'pro' is reported twice",
    });
    const state = await stored(h.store, id);
    expect(state.attempts.size).toBe(0);
    expect(state.judge_outcome.size).toBe(0);
  });

  it("stratum_step_done during the rounds and stratum_parallel_done during the synthesis are refused", async () => {
    const h = harness();
    const id = await start(h.api, spec({ rounds: 1 }));
    expect(plain(await synthesise(h.api, id, "x"))).toMatchObject({
      status: "error",
      error_type: "wrong_step_type",
      message: expect.stringContaining("stratum_parallel_done"),
    });
    await round(h.api, id, [arg("pro", "a"), arg("con", "b")]);
    expect(plain(await round(h.api, id, [arg("pro", "a"), arg("con", "b")]))).toMatchObject({
      status: "error",
      error_type: "wrong_step_type",
      message: expect.stringContaining("stratum_step_done"),
    });
    expect(plain(await synthesise(h.api, id, "x"))).toMatchObject({ step_id: "report" });
  });

  it("without an agent runner, start, poll and advance on a debate step answer errors", async () => {
    const h = harness();
    const id = await start(h.api, spec());
    expect(plain(await h.api.parallelStart({ flow_id: id, step_id: "design" }))).toMatchObject({
      status: "error",
      error_type: "server_dispatch_unavailable",
    });
    expect(plain(await h.api.parallelPoll({ flow_id: id, step_id: "design" }))).toMatchObject({
      status: "error",
      error_type: "not_dispatched",
    });
    const advance = await h.api.parallelAdvance({ flow_id: id, step_id: "design", merge_status: "clean" });
    expect(plain(advance)).toMatchObject({ status: "error", error_type: "wrong_step_type" });
  });
});

describe("durability", () => {
  it("stratum_resume repeats the current round with its history", async () => {
    const h = harness();
    const id = await start(h.api, spec());
    await round(h.api, id, [arg("pro", "a"), arg("con", "b")]);
    const resumed = plain(await h.api.resume({ flow_id: id }));
    expect(resumed).toMatchObject({ round: 2, history: [[{ id: "pro" }, { id: "con" }]] });
  });

  it("restarts after round 1 and during the synthesis: the debate goes on where it stood", async () => {
    const h = harness();
    const id = await start(h.api, spec({ rounds: 2 }));
    await round(h.api, id, [arg("pro", "a"), arg("con", "b")]);
    const second = h.restart();
    expect(plain(await second.resume({ flow_id: id }))).toMatchObject({ round: 2 });
    expect(plain(await round(second, id, [arg("pro", "c"), arg("con", "d")]))).toMatchObject({
      step_mode: "synthesis",
    });
    const third = h.restart();
    expect(plain(await synthesise(third, id, "c"))).toMatchObject({ step_id: "report" });
    expect(await debateState(h, id)).toMatchObject({ round: 2, phase: "done" });
  });

  it("a route back to the debate starts it again from round 1", async () => {
    const h = harness();
    const s = spec({ rounds: 1 }).replace(
      '        intent: "Report"\n',
      '        intent: "Report"\n        ensure: ["result.ok"]\n        on_fail: design\n',
    );
    const id = await start(h.api, s);
    await round(h.api, id, [arg("pro", "a"), arg("con", "b")]);
    await synthesise(h.api, id, "a");
    const back = plain(
      await h.api.stepDone({ flow_id: id, step_id: "report", result: result('{"ok": false}') }),
    );
    expect(back).toMatchObject({ status: "parallel_dispatch", step_id: "design", round: 1, history: [] });
    expect((await stored(h.store, id)).judge_outcome.has("design")).toBe(false);
  });
});
