// The verifier tier of judge steps (docs/reference/runtime.md §25.3) on an in-process engine with a
// fake verifier port: what the agent is asked (the reference's prompt, model and read-only tools,
// a copy of the staged evidence), how its reply is read (fenced or surrounded JSON, the gate,
// citations checked against the staged tree), what a failure answers, and what the turn records.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JudgeVerifier, VerifierAnswer, VerifierRequest } from "../../../interpreter/flow/judge/t2";
import { fromJsonValue, toJson } from "../../../stdlib/values/json";
import { makeTestApi } from "../support/make-test-api";
import { plain, planOk, result, stored } from "./api-fixtures";

const SPEC = (predicates: string, extra = "") => `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: build
        intent: "Build it"
      - id: review
        depends_on: [build]
        judge:
          predicates: ${predicates}
${extra}        ensure: ["result.met"]
`;

/** A verifier that answers each call with the next of `answers`, and keeps what it was asked. */
function fakeVerifier(answers: VerifierAnswer[], onAsk?: () => void) {
  const asked: { request: VerifierRequest; prompt: string }[] = [];
  const verifier: JudgeVerifier = {
    async verify(request) {
      asked.push({ request, prompt: request.prompt("/staging/turn") });
      onAsk?.();
      return answers.shift() ?? { ok: false, errorType: "agent_failed", message: "no more answers" };
    },
  };
  return { verifier, asked };
}

const reply = (json: object): VerifierAnswer => ({ ok: true, text: JSON.stringify(json) });

describe("the judge's verifier tier", () => {
  let work: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), "judge-verifier-"));
    mkdirSync(join(work, "src"));
    writeFileSync(join(work, "src", "a.ts"), "export const a = 1;\n");
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  async function atJudge(verifier: JudgeVerifier, predicates: string, extra = "") {
    const h = makeTestApi({ cwd: work, judgeVerifier: verifier });
    const flowId = String((await planOk(h.api, SPEC(predicates, extra))).flow_id);
    const payload = plain(
      await h.api.stepDone({ flow_id: flowId, step_id: "build", result: result("{}") }),
    ) as {
      predicates: unknown;
      stakes: string;
      budget: unknown;
    };
    const judge = () =>
      h.api.judge({
        flow_id: flowId,
        step_id: "review",
        predicates: fromJsonValue(payload.predicates),
        stakes: payload.stakes,
        budget: fromJsonValue(payload.budget),
        artifacts: new Map([["log", "line one\n12 passed\n"]]),
        modified_files: ["src/a.ts"],
      });
    return { h, flowId, judge };
  }

  it("asks with the reference's prompt and tools over a copy of the evidence, and records T1 n/a then T2", async () => {
    const { verifier, asked } = fakeVerifier([
      reply({
        predicate_id: "p1",
        verdict: "met",
        confidence: 9,
        reason: "all tests pass",
        evidence: [{ source: "artifacts/log.txt:2", quote: "12 passed", tier: "T2" }],
      }),
    ]);
    const { h, flowId, judge } = await atJudge(
      verifier,
      "[{id: p1, type: verified, statement: 'the tests pass'}]",
    );
    const answer = plain(await judge());
    expect(answer).toMatchObject({
      met: true,
      summary: "judge: 1/1 predicates met (T2, claude); degraded_judged=false",
      meta: { agent_type: "claude", model_id: "claude-sonnet-4-6" },
      budget_consumed: { turns: 1, dollars: 0 },
      judge_kernel_meta: { degraded_judged: false },
      predicates: [
        {
          id: "p1",
          verdict: "met",
          confidence: 9,
          evidence: [{ source: "artifacts/log.txt:2", quote: "12 passed", tier: "T2" }],
          tier_history: [
            { tier: "T1", verdict: "n/a", confidence: null, reason: "non-deterministic predicate" },
            { tier: "T2", verdict: "met", confidence: 9, reason: "all tests pass" },
          ],
          t3: null,
        },
      ],
    });
    expect(asked).toHaveLength(1);
    const { request, prompt } = asked[0] ?? { request: null, prompt: "" };
    expect(prompt.startsWith("You are a verifier.")).toBe(true);
    expect(prompt).toContain(
      "You are operating against the staging tree at /staging/turn.\nPredicate id: p1\nPredicate type: verified\nPredicate statement: the tests pass\nApplied gate (confidence floor for 'met'): 7\n",
    );
    expect(request?.model).toBe("claude-sonnet-4-6");
    expect(request?.allowedTools).toEqual(["Read", "Grep", "Glob"]);
    expect(request?.disallowedTools).toEqual(["Edit", "Write", "NotebookEdit", "Task", "Bash"]);
    const files = new Map((request?.files ?? []).map((f) => [f.path, new TextDecoder().decode(f.bytes)]));
    expect(files).toEqual(
      new Map([
        ["artifacts/log.txt", "line one\n12 passed\n"],
        ["modified/src/a.ts", "export const a = 1;\n"],
      ]),
    );
    const state = await stored(h.store, flowId);
    expect(JSON.parse(toJson(state.judge_history.get("review") ?? null))).toEqual([
      {
        turn: 1,
        predicate_id: "p1",
        tier: "T1",
        verdict: "n/a",
        confidence: null,
        reason: "non-deterministic predicate",
      },
      { turn: 1, predicate_id: "p1", tier: "T2", verdict: "met", confidence: 9, reason: "all tests pass" },
    ]);
  });

  it("reads fenced and surrounded JSON; a met below the gate is ambiguous; a judged predicate is degraded", async () => {
    const { verifier } = fakeVerifier([
      { ok: true, text: '```json\n{"verdict": "not_met", "confidence": "8", "reason": "no tests"}\n```' },
      { ok: true, text: 'I checked.\n{"verdict": "met", "confidence": 6.9, "reason": "looks fine"}\nDone.' },
    ]);
    const { judge } = await atJudge(
      verifier,
      "[{id: p1, type: verified, statement: covered}, {id: p2, type: judged, statement: clear}, {id: p3, type: deterministic, statement: \"file_exists('modified/src/a.ts')\"}]",
    );
    expect(plain(await judge())).toMatchObject({
      met: false,
      summary: "judge: 1/3 predicates met (T1+T2, claude); degraded_judged=true",
      judge_kernel_meta: { degraded_judged: true },
      predicates: [
        { id: "p1", verdict: "not_met", confidence: 8 },
        { id: "p2", verdict: "ambiguous", confidence: 6 },
        { id: "p3", verdict: "met", confidence: 10 },
      ],
      findings: [
        { severity: "must-fix", finding: "covered — no tests" },
        { severity: "should-fix", finding: "clear — looks fine" },
      ],
    });
  });

  it("fails the call on a citation outside the staged tree, a reply that is not a verdict, or an agent failure", async () => {
    const cases: [VerifierAnswer, string, string][] = [
      [
        reply({
          verdict: "met",
          confidence: 9,
          evidence: [{ source: "artifacts/../../etc/passwd:1", quote: "", tier: "T2" }],
        }),
        "CitationFormatError",
        "citation escapes staging bucket: 'artifacts/../../etc/passwd:1'",
      ],
      [
        reply({
          verdict: "met",
          confidence: 9,
          evidence: [{ source: "modified/src/b.ts:1", quote: "", tier: "T2" }],
        }),
        "CitationFormatError",
        "citation path missing in staging tree: 'modified/src/b.ts:1'",
      ],
      [
        reply({
          verdict: "met",
          confidence: 9,
          evidence: [{ source: "README.md:1", quote: "", tier: "T2" }],
        }),
        "CitationFormatError",
        "bad citation format: 'README.md:1'",
      ],
      [
        { ok: true, text: "I think it is fine." },
        "verifier_failed",
        "predicate 'p1': the verifier's reply is not JSON",
      ],
      [reply({ verdict: "maybe", confidence: 9 }), "verifier_failed", "must be met, not_met or ambiguous"],
      [
        { ok: false, errorType: "agent_timeout", message: "the agent ran past 1800 s" },
        "verifier_failed",
        "the verifier of predicate 'p1' failed (agent_timeout): the agent ran past 1800 s",
      ],
    ];
    for (const [answer, errorType, message] of cases) {
      const { verifier, asked } = fakeVerifier([answer, reply({ verdict: "met", confidence: 9 })]);
      const { h, flowId, judge } = await atJudge(
        verifier,
        "[{id: p1, type: verified, statement: s}, {id: p2, type: verified, statement: t}]",
      );
      const answered = plain(await judge()) as { error_type: string; message: string };
      expect(answered.error_type).toBe(errorType);
      expect(answered.message).toContain(message);
      // The call ends at the predicate whose verifier gave no verdict, and is not a turn.
      expect(asked).toHaveLength(1);
      expect((await stored(h.store, flowId)).judge_history.size).toBe(0);
    }
  });

  it("judges anew after the agents: a flow that moved on meanwhile is not judged", async () => {
    let moveOn: () => Promise<void> = async () => undefined;
    const { verifier } = fakeVerifier([reply({ verdict: "met", confidence: 9 })], () => {
      void moveOn();
    });
    const { h, flowId, judge } = await atJudge(verifier, "[{id: p1, type: verified, statement: s}]");
    moveOn = async () => {
      await h.api.stepDone({ flow_id: flowId, step_id: "review", result: result('{"met": true}') });
    };
    expect(plain(await judge())).toMatchObject({ status: "error", error_type: "step_mismatch" });
  });

  it("counts the agents' time against max_wall_clock_s", async () => {
    const clockHolder: { advance: (ms: number) => void } = { advance: () => undefined };
    const { verifier } = fakeVerifier([reply({ verdict: "met", confidence: 9 })], () =>
      clockHolder.advance(5_000),
    );
    const { h, judge } = await atJudge(
      verifier,
      "[{id: p1, type: verified, statement: s}]",
      "          budget: {max_wall_clock_s: 2}\n",
    );
    clockHolder.advance = (ms) => h.clock.advance(ms);
    expect(plain(await judge())).toEqual({
      status: "error",
      error_type: "BudgetExceededError",
      message: "wall-clock budget exceeded at 5.0s (cap=2s)",
    });
  });
});
