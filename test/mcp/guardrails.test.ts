// Guardrails (docs/reference/language.md §11.1, docs/reference/runtime.md §25.1) through the built
// stratum-mcp over stdio: a pattern Python's re rejects is refused by stratum_validate with
// Python's reason; at run time a matching result is guardrail_blocked (case-insensitively, the
// pattern written as Python's repr), a clean one passes, and a pattern RE2 cannot run fails closed.
import { describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { parseJson } from "../../stdlib/values/json";
import { PyDict } from "../../stdlib/values/value";
import { restartableServer } from "./support/restartable-server";

const SPEC = `version: "0.2"
contracts:
  Note:
    text: {type: string}
functions:
  write:
    mode: infer
    intent: "Write the release note"
    input: {}
    output: Note
    retries: 2
    guardrails: ['BEGIN [A-Z ]*PRIVATE KEY', 'api[_-]?key\\s*[:=]']
flows:
  main:
    input: {}
    steps:
      - id: note
        function: write
        inputs: {}
      - id: review
        intent: "Review the note"
        guardrails: ['(\\w+) \\1']
        retries: 1
        on_fail: fallback
      - id: fallback
        intent: "Write it by hand"
`;

type Plain = Record<string, unknown>;
const p = (r: unknown): Plain => wireToPlain(r as never) as Plain;

describe("guardrails over MCP", () => {
  const servers = restartableServer("stratum-mcp-guardrails-");

  it("stratum_validate refuses a pattern Python's re rejects, with Python's reason", async () => {
    const api = await servers.restart();
    const bad = SPEC.replace("'BEGIN [A-Z ]*PRIVATE KEY'", "'BEGIN [A-Z '");
    const answer = p(await api.validate({ spec: bad }));
    expect(answer.valid).toBe(false);
    expect(JSON.stringify(answer.errors)).toContain(
      "Function 'write' guardrail[0] is not a valid regex: unterminated character set at position 6",
    );
    expect(p(await api.validate({ spec: SPEC })).valid).toBe(true);
    expect(api.problems).toEqual([]);
  });

  it("blocks a matching result, lets a clean one through, and fails closed on a pattern RE2 cannot run", async () => {
    const api = await servers.restart();
    const plan = p(await api.plan({ spec: SPEC, flow: "main", inputs: new PyDict() }));
    expect(plan).toMatchObject({ status: "execute_step", step_id: "note" });
    const id = String(plan.flow_id);
    const done = async (step: string, json: string) =>
      p(await api.stepDone({ flow_id: id, step_id: step, result: parseJson(json) }));

    expect(
      await done("note", '{"text": "use API-KEY: 123 and -----begin rsa private key-----"}'),
    ).toMatchObject({
      status: "guardrail_blocked",
      step_id: "note",
      retries_remaining: 1,
      violations: [
        "guardrail matched: 'BEGIN [A-Z ]*PRIVATE KEY'",
        "guardrail matched: 'api[_-]?key\\\\s*[:=]'",
      ],
    });
    expect(await done("note", '{"text": "nothing secret"}')).toMatchObject({
      status: "execute_step",
      step_id: "review",
    });
    // `(\w+) \1` needs a backreference: never searched, it blocks every result; on_fail routes.
    expect(await done("review", '{"ok": true}')).toMatchObject({
      status: "execute_step",
      step_id: "fallback",
      routed_from: "review",
      violations: ["guardrail matched: '(\\\\w+) \\\\1'"],
    });
    expect(api.problems).toEqual([]);
  });
});
