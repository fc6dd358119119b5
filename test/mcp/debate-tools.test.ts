// Debate steps (stratumc's extension, docs/reference/runtime.md §23.15) through the built stratum-mcp over
// stdio: two debaters over three rounds with a synthesis, a debate that converges in round 2, a
// debater failing its contract then passing on the round's retry, and server restarts after
// round 1 and during the synthesis (a new server on the same STRATUM_HOME goes on where the
// debate stood). The audit shows the debate under `debates`.
import { describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";
import { restartableServer } from "./support/restartable-server";

function spec(converge: string | null): string {
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
        intent: "Argue your side"
        debaters:
          - {id: pro, agent: claude, intent: "Argue for event sourcing"}
          - {id: con, agent: codex, intent: "Argue for a plain relational model"}
        rounds: 3
        argument_contract: Argument
${converge === null ? "" : `        converge: ${JSON.stringify(converge)}\n`}        synthesis:
          agent: claude
          intent: "Weigh the arguments and decide"
          output_contract: Decision
        retries: 2
      - id: build
        intent: "Build with {choice}"
        inputs: {choice: "$.steps.design.output.choice"}
        depends_on: [design]
`;
}

type Plain = Record<string, unknown>;

const round = (pro: string, con: string | null) =>
  parseJson(
    `[{"task_id": "pro", "status": "complete", "result": {"position": "${pro}"}}, ${
      con === null
        ? `{"task_id": "con", "status": "complete", "result": {"stance": "none"}}`
        : `{"task_id": "con", "status": "complete", "result": {"position": "${con}"}}`
    }]`,
  );

describe("debate steps over MCP", () => {
  const servers = restartableServer("stratum-mcp-debate-");
  const restart = () => servers.restart();

  it("two debaters over three rounds with synthesis, restarted after round 1 and during the synthesis", async () => {
    let api = await restart();
    const plan = p(await api.plan({ spec: spec(null), flow: "main", inputs: new PyDict() }));
    expect(plan).toMatchObject({
      status: "parallel_dispatch",
      step_mode: "debate",
      tasks: [
        { id: "pro", agent: "claude" },
        { id: "con", agent: "codex" },
      ],
      round: 1,
      rounds: 3,
      history: [],
    });
    const id = String(plan.flow_id);
    const done = (pro: string, con: string | null) =>
      api.parallelDone({
        flow_id: id,
        step_id: "design",
        task_results: round(pro, con),
        merge_status: "clean",
      });
    expect(p(await done("events", "tables"))).toMatchObject({ round: 2 });

    api = await restart();
    const resumed = p(await api.resume({ flow_id: id }));
    expect(resumed).toMatchObject({
      status: "parallel_dispatch",
      step_mode: "debate",
      round: 2,
      history: [
        [
          { id: "pro", argument: { position: "events" } },
          { id: "con", argument: { position: "tables" } },
        ],
      ],
    });
    expect(String((resumed.tasks as Plain[])[0]?.intent)).toContain('- con: {"position": "tables"}');
    expect(p(await done("events", "tables"))).toMatchObject({ round: 3 });
    const synthesis = p(await done("events", "events"));
    expect(synthesis).toMatchObject({
      status: "execute_step",
      step_mode: "synthesis",
      agent: "claude",
      output_contract: "Decision",
      rounds_played: 3,
      converged: false,
    });
    expect(synthesis.history).toHaveLength(3);

    api = await restart();
    expect(p(await api.resume({ flow_id: id }))).toMatchObject({
      status: "execute_step",
      step_mode: "synthesis",
    });
    const next = p(
      await api.stepDone({ flow_id: id, step_id: "design", result: parseJson('{"choice": "events"}') }),
    );
    expect(next).toMatchObject({ status: "execute_step", step_id: "build", inputs: { choice: "events" } });
    const audit = p(await api.audit({ flow_id: id }));
    expect(audit).toMatchObject({
      trace: [{ step_id: "design", step_mode: "debate", attempts: 1 }],
      debates: { design: { round: 3, rounds: 3, phase: "done", converged: false } },
    });
    expect(api.problems).toEqual([]);
  });

  it("converges in round 2; a debater failing its contract is retried with the round", async () => {
    const api = await restart();
    const converge = "all(a.position == round[0].position for a in round)";
    const plan = p(await api.plan({ spec: spec(converge), flow: "main", inputs: new PyDict() }));
    expect(plan).toMatchObject({ converge });
    const id = String(plan.flow_id);
    const done = (pro: string, con: string | null) =>
      api.parallelDone({
        flow_id: id,
        step_id: "design",
        task_results: round(pro, con),
        merge_status: "clean",
      });
    const retried = p(await done("events", null));
    expect(retried).toMatchObject({
      status: "ensure_failed",
      step_mode: "debate",
      round: 1,
      retries_remaining: 1,
      violations: [
        "debater 'con': contract violation: missing required field 'position' (contract 'Argument')",
      ],
    });
    expect(p(await done("events", "tables"))).toMatchObject({ status: "parallel_dispatch", round: 2 });
    const synthesis = p(await done("tables", "tables"));
    expect(synthesis).toMatchObject({ step_mode: "synthesis", rounds_played: 2, converged: true });
    const next = p(
      await api.stepDone({ flow_id: id, step_id: "design", result: parseJson('{"choice": "tables"}') }),
    );
    expect(next).toMatchObject({ step_id: "build", inputs: { choice: "tables" } });
    expect(p(await api.audit({ flow_id: id }))).toMatchObject({
      debates: { design: { round: 2, converged: true, phase: "done" } },
    });
    expect(api.problems).toEqual([]);
  });
});

function p(r: unknown): Plain {
  return wireToPlain(r as never) as Plain;
}
