// Judge steps (docs/reference/runtime.md §25.3) through the built stratum-mcp over stdio, as an agent
// drives them: plan → the build step → the judge payload → stratum_judge with the payload's
// declaration and the build log as an artifact → stratum_step_done with the verdict, across a
// server restart; a predicate whose verifier agent cannot run fails the call instead of being judged
// (the verifier tier itself: judge-verifier.test.ts).
import { describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { fromJsonValue, parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";
import { restartableServer } from "./support/restartable-server";

const SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: build
        intent: "Build the project and keep the log"
      - id: review
        depends_on: [build]
        judge:
          predicates:
            - {id: built, type: deterministic, statement: "file_contains('artifacts/log.txt', 'BUILD OK')"}
            - {id: small, type: deterministic, statement: "len(str(12345)) <= 5", applied_gate: 9}
          stakes: cheap
        ensure: ["result.met"]
        retries: 2
      - id: docs
        depends_on: [review]
        judge:
          predicates:
            - {id: clear, type: judged, statement: "the README explains the change"}
`;

type Plain = Record<string, unknown>;

function p(r: unknown): Plain {
  return wireToPlain(r as never) as Plain;
}

describe("judge steps over MCP", () => {
  // An agent command that does not exist: no real agent CLI on the machine is ever run.
  const servers = restartableServer("stratum-mcp-judge-", {
    STRATUM_PARALLEL_DISPATCH: "off",
    STRATUM_AGENT_COMMAND: "/nonexistent/stratum-judge-agent",
  });

  it("plan, judge the build log, report the verdict; the docs judge fails without its verifier", async () => {
    let api = await servers.restart();
    const id = String(p(await api.plan({ spec: SPEC, flow: "main", inputs: new PyDict() })).flow_id);
    const payload = p(await api.stepDone({ flow_id: id, step_id: "build", result: parseJson("{}") }));
    expect(payload).toMatchObject({
      status: "execute_step",
      step_id: "review",
      step_mode: "judge",
      stakes: "cheap",
      budget: null,
      ensure: ["result.met"],
      retries_remaining: 2,
    });

    api = await servers.restart();
    const args = {
      flow_id: id,
      step_id: "review",
      predicates: fromJsonValue(payload.predicates),
      stakes: String(payload.stakes),
      budget: null,
    };
    const failing = p(
      await api.judge({ ...args, artifacts: new Map([["log", "compiling…\nBUILD FAILED\n"]]) }),
    );
    expect(failing).toMatchObject({
      met: false,
      clean: false,
      predicates: [
        { id: "built", verdict: "not_met" },
        { id: "small", verdict: "met", applied_gate: 9 },
      ],
      findings: [{ severity: "must-fix", applied_gate: 7 }],
    });
    const passing = p(await api.judge({ ...args, artifacts: new Map([["log", "compiling…\nBUILD OK\n"]]) }));
    expect(passing).toMatchObject({
      met: true,
      clean: true,
      summary: "judge: 2/2 predicates met (T1, judge); degraded_judged=false",
    });

    // stratum_judge advanced nothing: the agent reports the verdict it got.
    const next = p(await api.stepDone({ flow_id: id, step_id: "review", result: fromJsonValue(passing) }));
    expect(next).toMatchObject({
      status: "execute_step",
      step_id: "docs",
      step_mode: "judge",
      stakes: "default",
    });
    const refused = p(
      await api.judge({
        flow_id: id,
        step_id: "docs",
        predicates: fromJsonValue(next.predicates),
        artifacts: new Map(),
      }),
    );
    expect(refused).toMatchObject({ status: "error", error_type: "verifier_failed" });
    expect(String(refused.message)).toContain("predicate 'clear' failed (agent_failed)");
    expect(String(refused.message)).toContain("not found");

    const done = p(await api.stepDone({ flow_id: id, step_id: "docs", result: parseJson('{"met": true}') }));
    expect(done).toMatchObject({ status: "complete" });
    expect(p(await api.audit({ flow_id: id }))).toMatchObject({
      trace: [
        { step_id: "build", step_mode: "inline" },
        { step_id: "review", step_mode: "judge", function_name: "", attempts: 1 },
        { step_id: "docs", step_mode: "judge", attempts: 1 },
      ],
    });
    expect(api.problems).toEqual([]);
  });

  it("answers a mismatched declaration and bad arguments without touching the flow", async () => {
    const api = await servers.restart();
    const id = String(p(await api.plan({ spec: SPEC, flow: "main", inputs: new PyDict() })).flow_id);
    const payload = p(await api.stepDone({ flow_id: id, step_id: "build", result: parseJson("{}") }));
    const mismatch = p(
      await api.judge({
        flow_id: id,
        step_id: "review",
        predicates: fromJsonValue(payload.predicates),
        artifacts: new Map(),
      }),
    );
    expect(mismatch).toEqual({
      status: "error",
      error_type: "stakes_mismatch",
      message: "stakes 'default' does not match IR declaration 'cheap'",
    });
    expect(p(await api.resume({ flow_id: id }))).toMatchObject({ step_id: "review", retries_remaining: 2 });
    expect(api.problems).toEqual([]);
  });
});
