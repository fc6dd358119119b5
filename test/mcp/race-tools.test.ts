// Race steps (stratumc's extension, docs/reference/runtime.md §23.14) through the built stratum-mcp over
// stdio: a race whose second candidate wins while the others are cancelled, reported over two
// calls with a server restart between them (the rejected candidate is remembered); a lost race
// that retries and then routes to on_fail (server-side candidates: member-server-dispatch.test.ts).
import { describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";
import { restartableServer } from "./support/restartable-server";

const SPEC = `version: "0.3"
contracts:
  Patch:
    tests_pass: {type: boolean}
    diff: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: fix
        type: race
        intent: "Make the failing test pass"
        candidates:
          - {id: careful, agent: claude}
          - {id: bold, agent: codex, intent: "Rewrite the module if needed"}
          - {id: quick, agent: claude, intent: "Patch the smallest thing"}
        output_contract: Patch
        ensure: ["result.tests_pass"]
        retries: 2
        on_fail: by_hand
      - id: apply
        intent: "Apply {diff}"
        inputs: {diff: "$.steps.fix.output.diff"}
        depends_on: [fix]
        next: done
      - id: by_hand
        intent: "Fix it by hand"
      - id: done
        intent: "Close"
`;

type Plain = Record<string, unknown>;

const report = (entries: [string, boolean][]) =>
  parseJson(
    `[${entries
      .map(
        ([id, pass]) =>
          `{"task_id": "${id}", "status": "complete", "result": {"tests_pass": ${pass}, "diff": "${id}.patch"}}`,
      )
      .join(", ")}]`,
  );

describe("race steps over MCP", () => {
  const servers = restartableServer("stratum-mcp-race-");
  const restart = () => servers.restart();

  it("the second candidate wins across a restart; the third is cancelled; the audit keeps the race", async () => {
    let api = await restart();
    const plan = p(await api.plan({ spec: SPEC, flow: "main", inputs: new PyDict() }));
    expect(plan).toMatchObject({
      status: "parallel_dispatch",
      step_mode: "race",
      tasks: [
        { id: "careful", agent: "claude", intent: "Make the failing test pass" },
        { id: "bold", agent: "codex", intent: "Rewrite the module if needed" },
        { id: "quick", agent: "claude", intent: "Patch the smallest thing" },
      ],
    });
    const id = String(plan.flow_id);
    const first = { flow_id: id, step_id: "fix", merge_status: "clean" };
    expect(p(await api.parallelDone({ ...first, task_results: report([["careful", false]]) }))).toMatchObject(
      {
        status: "race_pending",
        rejected: [{ id: "careful", violations: ["ensure_failed: ensure 'result.tests_pass' failed"] }],
        outstanding: ["bold", "quick"],
      },
    );

    api = await restart();
    expect(p(await api.resume({ flow_id: id }))).toMatchObject({
      status: "parallel_dispatch",
      step_id: "fix",
    });
    const next = p(await api.parallelDone({ ...first, task_results: report([["bold", true]]) }));
    expect(next).toMatchObject({
      status: "execute_step",
      step_id: "apply",
      inputs: { diff: "bold.patch" },
      race: { winner: "bold", cancel: ["quick"] },
    });
    expect(p(await api.audit({ flow_id: id }))).toMatchObject({
      trace: [{ step_id: "fix", step_mode: "race", attempts: 1 }],
      race_outcomes: {
        fix: {
          candidates: ["careful", "bold", "quick"],
          reported: [
            { id: "careful", passed: false },
            { id: "bold", passed: true, reason: null },
          ],
          winner: "bold",
          cancelled: ["quick"],
        },
      },
    });
    expect(api.problems).toEqual([]);
  });

  it("a lost race retries with a fresh race, then routes to on_fail", async () => {
    const api = await restart();
    const id = String(p(await api.plan({ spec: SPEC, flow: "main", inputs: new PyDict() })).flow_id);
    const all = (pass: boolean) =>
      api.parallelDone({
        flow_id: id,
        step_id: "fix",
        task_results: report([
          ["quick", pass],
          ["careful", pass],
          ["bold", pass],
        ]),
        merge_status: "clean",
      });
    const lost = "ensure_failed: ensure 'result.tests_pass' failed";
    expect(p(await all(false))).toMatchObject({
      status: "ensure_failed",
      step_mode: "race",
      retries_remaining: 1,
      violations: [
        `race lost: candidate 'careful': ${lost}`,
        `race lost: candidate 'bold': ${lost}`,
        `race lost: candidate 'quick': ${lost}`,
      ],
    });
    expect(p(await all(false))).toMatchObject({
      status: "execute_step",
      step_id: "by_hand",
      routed_from: "fix",
    });
    expect(api.problems).toEqual([]);
  });
});

function p(r: unknown): Plain {
  return wireToPlain(r as never) as Plain;
}
