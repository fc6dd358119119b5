// Guardrails at run time (docs/reference/runtime.md §25.1): which list applies, the text searched
// (Python's json.dumps with sorted keys and \u escapes), the violation text (Python repr of the
// pattern), and fail-closed for a pattern RE2 cannot search.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardrailsOf, guardrailViolations } from "../../../interpreter/flow/guardrails";
import { checkResult } from "../../../interpreter/flow/result-checks";
import { data, world } from "./support";

const SPEC = `version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  scan:
    mode: infer
    intent: s
    input: {}
    output: Out
    guardrails: ['rm -rf', 'api\\w*key']
flows:
  main:
    input: {}
    steps:
      - id: a
        function: scan
      - id: b
        intent: x
        guardrails: ['secret']
      - id: c
        intent: y
`;

function steps() {
  const { tx, run } = world(SPEC);
  const step = (id: string) => {
    const s = run.flow.stepById.get(id);
    if (s === undefined) throw new Error(id);
    return s;
  };
  return { tx, run, step };
}

const texts = (patterns: readonly string[], result: unknown) =>
  guardrailViolations(patterns, data(result)).map((v) => v.text);

describe("guardrails", () => {
  it("a function step uses its function's list, another step its own", () => {
    const { run, step } = steps();
    expect(guardrailsOf(run, step("a"))).toEqual(["rm -rf", "api\\w*key"]);
    expect(guardrailsOf(run, step("b"))).toEqual(["secret"]);
    expect(guardrailsOf(run, step("c"))).toEqual([]);
  });

  it("blocks a matching result with guardrail_blocked, case-insensitively, naming each pattern as Python's repr", () => {
    const { tx, run, step } = steps();
    const outcome = checkResult(tx, run, step("a"), data({ v: "run RM -RF / and API_KEY" }));
    expect(outcome).toMatchObject({ ok: false, status: "guardrail_blocked" });
    if (outcome.ok) return;
    expect(outcome.reasons.map((r) => r.text)).toEqual([
      "guardrail matched: 'rm -rf'",
      "guardrail matched: 'api\\\\w*key'",
    ]);
    expect(checkResult(tx, run, step("a"), data({ v: "fine" }))).toEqual({ ok: true });
  });

  it("runs after the contract: a result off its contract is schema_failed first", () => {
    const { tx, run, step } = steps();
    expect(checkResult(tx, run, step("a"), data({ v: 1, w: "rm -rf" }))).toMatchObject({
      status: "schema_failed",
    });
  });

  it("searches the JSON text: keys count, non-ASCII is \\u-escaped, keys are sorted", () => {
    expect(texts(["password"], { password: 1 })).toHaveLength(1);
    expect(texts(["é"], { v: "café" })).toEqual([]);
    expect(texts(["\\\\u00e9"], { v: "café" })).toHaveLength(1);
    expect(texts(['"a": 1, "b"'], { b: 2, a: 1 })).toHaveLength(1);
  });

  it("fails closed on a pattern RE2 cannot search", () => {
    expect(texts(["(a)\\1"], { v: "nothing here" })).toEqual(["guardrail matched: '(a)\\\\1'"]);
  });

  it("a literal word blocks every result whose JSON text holds it, in any case", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{3,8}$/), fc.string(), (word, around) => {
        expect(texts([word], { v: `${around}${word.toUpperCase()}${around}` })).toHaveLength(1);
      }),
    );
  });
});
