// Quorum steps (stratumc's extension, docs/reference/runtime.md §23.13) through the built stratum-mcp over
// stdio: a quorum that agrees (its winning result flows on, the audit keeps the votes), one that
// does not (ensure_failed, then on_fail), and a server restart in the
// middle (a new server on the same STRATUM_HOME takes the report and finishes the step).
import { describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";
import { restartableServer } from "./support/restartable-server";

const SPEC = `version: "0.3"
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
        intent: "Classify the ticket's severity"
        runs: 3
        agree_on: "result.severity"
        threshold: 2
        output_contract: Classification
        retries: 2
        on_fail: by_hand
      - id: route
        intent: "Route a {severity} ticket"
        inputs: {severity: "$.steps.classify.output.severity"}
        depends_on: [classify]
        next: done
      - id: by_hand
        intent: "Classify by hand"
      - id: done
        intent: "Close"
`;

type Plain = Record<string, unknown>;

const runs = (severities: string[]) =>
  parseJson(
    `[${severities
      .map((s, i) => `{"task_id": "r${i + 1}", "status": "complete", "result": {"severity": "${s}"}}`)
      .join(", ")}]`,
  );

describe("quorum steps over MCP", () => {
  const servers = restartableServer("stratum-mcp-quorum-");
  const restart = () => servers.restart();

  it("a quorum that agrees, across a restart: the winning result flows on and the audit keeps the votes", async () => {
    let api = await restart();
    const plan = p(await api.plan({ spec: SPEC, flow: "main", inputs: new PyDict() }));
    expect(plan).toMatchObject({
      status: "parallel_dispatch",
      step_mode: "quorum",
      tasks: [{ id: "r1" }, { id: "r2" }, { id: "r3" }],
      runs: 3,
      agree_on: "result.severity",
      threshold: 2,
    });
    const id = String(plan.flow_id);

    api = await restart();
    expect(p(await api.resume({ flow_id: id }))).toMatchObject({
      status: "parallel_dispatch",
      step_id: "classify",
    });
    const next = p(
      await api.parallelDone({
        flow_id: id,
        step_id: "classify",
        task_results: runs(["high", "low", "high"]),
        merge_status: "clean",
      }),
    );
    expect(next).toMatchObject({ status: "execute_step", step_id: "route", inputs: { severity: "high" } });
    const audit = p(await api.audit({ flow_id: id }));
    expect(audit).toMatchObject({
      trace: [{ step_id: "classify", step_mode: "quorum", attempts: 1 }],
      quorum_votes: {
        classify: {
          votes: [
            { key: "high", runs: ["r1", "r3"] },
            { key: "low", runs: ["r2"] },
          ],
          winner: "r1",
        },
      },
    });
    expect(api.problems).toEqual([]);
  });

  it("a quorum that does not agree: ensure_failed with the violation, then on_fail", async () => {
    const api = await restart();
    const plan = p(await api.plan({ spec: SPEC, flow: "main", inputs: new PyDict() }));
    const id = String(plan.flow_id);
    const report = (severities: string[]) =>
      api.parallelDone({
        flow_id: id,
        step_id: "classify",
        task_results: runs(severities),
        merge_status: "clean",
      });
    expect(p(await report(["high", "low", "medium"]))).toMatchObject({
      status: "ensure_failed",
      step_mode: "quorum",
      retries_remaining: 1,
      violations: ["no quorum on 'result.severity': best 'high' 1 of 3, threshold 2"],
    });
    expect(p(await report(["low", "high", "medium"]))).toMatchObject({
      status: "execute_step",
      step_id: "by_hand",
      routed_from: "classify",
      violations: ["no quorum on 'result.severity': best 'low' 1 of 3, threshold 2"],
    });
    expect(api.problems).toEqual([]);
  });
});

function p(r: unknown): Plain {
  return wireToPlain(r as never) as Plain;
}
