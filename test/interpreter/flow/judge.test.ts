// Judge steps (docs/reference/runtime.md §25.3): the dispatch payload, stratum_judge's argument
// checks in the reference's order, the deterministic tier over the caller's artifacts and the
// workspace's modified files, the refusal of predicates that need an agent verifier, and the
// step protocol (stratum_judge does not advance; stratum_step_done checks the verdict).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JudgeArgs } from "../../../interpreter/api";
import { fromJsonValue } from "../../../stdlib/values/json";
import { harness, plain, planOk, result } from "./api-fixtures";

function spec(predicates: string, extra = ""): string {
  return `version: "0.2"
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
        retries: 2
`;
}

const DET = (statement: string, more = "") =>
  `[{id: p1, type: deterministic, statement: ${JSON.stringify(statement)}${more}}]`;

/** A flow at its judge step, and a call of stratum_judge with the step's own declaration. */
async function atJudge(predicates: string, extra = "", cwd = "/nowhere") {
  const h = harness(cwd);
  const plan = await planOk(h.api, spec(predicates, extra));
  const flowId = String(plan.flow_id);
  const dispatched = await h.api.stepDone({ flow_id: flowId, step_id: "build", result: result("{}") });
  const payload = plain(dispatched) as { predicates: unknown; stakes: string; budget: unknown };
  const judge = (args: Partial<Omit<JudgeArgs, "artifacts">> & { artifacts?: Record<string, string> } = {}) =>
    h.api.judge({
      flow_id: flowId,
      step_id: "review",
      predicates: fromJsonValue(payload.predicates),
      stakes: payload.stakes,
      budget: fromJsonValue(payload.budget),
      ...args,
      artifacts: new Map(Object.entries(args.artifacts ?? {})),
    });
  return { h, flowId, dispatched, judge };
}

describe("a judge step's dispatch", () => {
  it("is execute_step with step_mode judge, the declaration as written and the inline retries", async () => {
    const { dispatched } = await atJudge(
      "[{id: p1, type: deterministic, statement: x, weight: 2}]",
      "          stakes: cheap\n          budget: {max_turns: 2, note: n}\n",
    );
    expect(plain(dispatched)).toEqual({
      status: "execute_step",
      flow_id: expect.any(String),
      step_number: 2,
      total_steps: 2,
      step_id: "review",
      step_mode: "judge",
      agent: null,
      predicates: [{ id: "p1", type: "deterministic", statement: "x", weight: 2 }],
      stakes: "cheap",
      budget: { max_turns: 2, note: "n" },
      ensure: ["result.met"],
      retries_remaining: 2,
    });
  });

  it("defaults stakes to default and budget to null", async () => {
    const { dispatched } = await atJudge(DET("True"));
    expect(plain(dispatched)).toMatchObject({ stakes: "default", budget: null });
  });
});

describe("stratum_judge: the argument checks, in the reference's order", () => {
  it("answers flow_not_found, step_mismatch, predicates/stakes/budget mismatches", async () => {
    const { h, judge } = await atJudge(DET("True"), "          stakes: cheap\n");
    const unknown = await h.api.judge({
      flow_id: "nope",
      step_id: "review",
      predicates: [],
      artifacts: new Map(),
    });
    expect(plain(unknown)).toEqual({
      status: "error",
      error_type: "flow_not_found",
      message: "No active flow with id 'nope'",
    });
    expect(plain(await judge({ step_id: "build" }))).toEqual({
      status: "error",
      error_type: "step_mismatch",
      message: "step_id 'build' is not the current judge step (current: review)",
    });
    expect(plain(await judge({ predicates: fromJsonValue([]) }))).toMatchObject({
      error_type: "predicates_mismatch",
    });
    expect(plain(await judge({ stakes: "default" }))).toEqual({
      status: "error",
      error_type: "stakes_mismatch",
      message: "stakes 'default' does not match IR declaration 'cheap'",
    });
    expect(plain(await judge({ budget: fromJsonValue({ max_turns: 1 }) }))).toMatchObject({
      error_type: "budget_mismatch",
    });
    // An empty budget is no budget.
    expect(plain(await judge({ budget: fromJsonValue({}) }))).toMatchObject({ met: true });
  });

  it("answers not_a_judge_step on any other current step", async () => {
    const h = harness();
    const plan = await planOk(h.api, spec(DET("True")));
    const r = await h.api.judge({
      flow_id: String(plan.flow_id),
      step_id: "build",
      predicates: [],
      artifacts: new Map(),
    });
    expect(plain(r)).toEqual({
      status: "error",
      error_type: "not_a_judge_step",
      message: "step 'build' is not declared as a judge step",
    });
  });

  it("answers invalid_predicate for a predicate key the judge cannot take", async () => {
    const { judge } = await atJudge("[{id: p1, type: deterministic, statement: 'True', weight: 2}]");
    expect(plain(await judge())).toEqual({
      status: "error",
      error_type: "invalid_predicate",
      message:
        "failed to parse predicate dict: Predicate.__init__() got an unexpected keyword argument 'weight'",
    });
  });
});

describe("stratum_judge: the deterministic tier", () => {
  it("decides met over the artifacts, without advancing the flow", async () => {
    const { h, flowId, judge } = await atJudge(DET("file_contains('artifacts/log.txt', 'BUILD OK')"));
    const r = plain(await judge({ artifacts: { log: "...\nBUILD OK\n" } })) as Record<string, unknown>;
    expect(r).toMatchObject({
      clean: true,
      met: true,
      stakes: "default",
      summary: "judge: 1/1 predicates met (T1, judge); degraded_judged=false",
      findings: [],
      judge_version: "1.0",
      meta: { agent_type: "judge", model_id: null },
      predicates: [
        {
          id: "p1",
          type: "deterministic",
          verdict: "met",
          confidence: 10,
          applied_gate: 7,
          evidence: [],
          tier_history: [{ tier: "T1", verdict: "met", confidence: 10, reason: "deterministic check" }],
          t3: null,
        },
      ],
      budget_consumed: { turns: 1, dollars: 0 },
    });
    expect(r.status).toBeUndefined();
    // The flow still waits for the judge step's report.
    const done = await h.api.stepDone({
      flow_id: flowId,
      step_id: "review",
      result: result('{"met": false}'),
    });
    expect(plain(done)).toMatchObject({ status: "ensure_failed", step_mode: "judge", retries_remaining: 1 });
    const ok = await h.api.stepDone({ flow_id: flowId, step_id: "review", result: result('{"met": true}') });
    expect(plain(ok)).toMatchObject({ status: "complete" });
  });

  it("gives not_met with a must-fix finding for a missing artifact", async () => {
    const { judge } = await atJudge(DET("file_exists('artifacts/out.txt')"));
    expect(plain(await judge({ artifacts: {} }))).toMatchObject({
      met: false,
      clean: false,
      summary: "judge: 0/1 predicates met (T1, judge); degraded_judged=false",
      findings: [
        {
          lens: "judge",
          severity: "must-fix",
          finding: "file_exists('artifacts/out.txt') — deterministic check",
          confidence: 10,
          applied_gate: 7,
        },
      ],
    });
  });

  it("gives not_met with the error for an expression that raises or does not parse", async () => {
    const raising = await atJudge(DET("len(3) > 0"));
    expect(plain(await raising.judge())).toMatchObject({
      met: false,
      predicates: [
        {
          verdict: "not_met",
          tier_history: [{ reason: "t1 eval raised: object of type 'int' has no len()" }],
        },
      ],
    });
    const prose = await atJudge(DET("tests pass"));
    expect(plain(await prose.judge())).toMatchObject({
      met: false,
      predicates: [
        { verdict: "not_met", tier_history: [{ reason: "t1 eval raised: invalid syntax (<t1>, line 1)" }] },
      ],
    });
  });

  it("refuses a path outside artifacts/ and modified/, literal or computed, and a name outside its surface", async () => {
    const literal = await atJudge(DET("file_exists('/etc/passwd')"));
    expect(plain(await literal.judge())).toEqual({
      status: "error",
      error_type: "PredicatePathError",
      message:
        "deterministic predicate references path outside staging tree: '/etc/passwd' (expected prefix 'artifacts/' or 'modified/')",
    });
    const computed = await atJudge(DET("file_exists('art' + 'ifacts.txt')"));
    expect(plain(await computed.judge())).toMatchObject({
      error_type: "PredicatePathError",
      message: "runtime path rejected: 'artifacts.txt' (expected 'artifacts/' or 'modified/')",
    });
    const name = await atJudge(DET("sorted([1]) == [1]"));
    expect(plain(await name.judge())).toEqual({
      status: "error",
      error_type: "PredicateBuiltinError",
      message: "predicate 'p1' uses name not in T1 v1 surface: name 'sorted' is not defined",
    });
    const bound = await atJudge(DET("len([x for x in [1, 2] if x > 1]) == 1"));
    expect(plain(await bound.judge())).toMatchObject({ met: true });
  });

  it("reads modified files from the flow's working directory, only those listed", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "judge-"));
    try {
      mkdirSync(join(cwd, "src"));
      writeFileSync(join(cwd, "src", "a.ts"), "export const ok = true;\n");
      writeFileSync(join(cwd, "secret.txt"), "x");
      const { judge } = await atJudge(
        "[{id: p1, type: deterministic, statement: \"file_contains('modified/src/a.ts', 'ok = true')\"}, " +
          "{id: p2, type: deterministic, statement: \"file_exists('modified/secret.txt')\"}]",
        "",
        cwd,
      );
      expect(plain(await judge({ modified_files: ["src/a.ts"] }))).toMatchObject({
        met: false,
        predicates: [{ verdict: "met" }, { verdict: "not_met" }],
      });
      expect(plain(await judge({ modified_files: ["../x"] }))).toEqual({
        status: "error",
        error_type: "invalid_artifact",
        message: "modified path cannot contain '..': '../x'",
      });
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it("makes a met verdict ambiguous when its confidence is below applied_gate", async () => {
    // T1's confidence is 10, the largest gate: every deterministic met stands.
    const { judge } = await atJudge(DET("True", ", applied_gate: 10"));
    expect(plain(await judge())).toMatchObject({
      met: true,
      predicates: [{ verdict: "met", applied_gate: 10 }],
    });
  });

  it("matches file_contains for any text and needle (property)", async () => {
    const { judge } = await atJudge(DET("file_contains('artifacts/a.txt', 'needle')"));
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.boolean(), async (text, insert) => {
        const content = insert ? `${text}needle${text}` : text;
        const r = plain(await judge({ artifacts: { a: content } })) as { met: boolean };
        expect(r.met).toBe(content.includes("needle"));
      }),
      { numRuns: 40 },
    );
  });
});

describe("stratum_judge: predicates that need an agent verifier", () => {
  it("refuses them with cheap stakes, as the reference does", async () => {
    const { judge } = await atJudge(
      "[{id: p1, type: deterministic, statement: 'True'}, {id: p2, type: judged, statement: clear}]",
      "          stakes: cheap\n",
    );
    expect(plain(await judge())).toEqual({
      status: "error",
      error_type: "StakesPredicateMismatchError",
      message: "'cheap' stakes rejects non-deterministic predicates: ['p2']",
    });
  });

  it("answers verifier_unavailable instead of a verdict otherwise, after earlier deterministic errors", async () => {
    const { judge } = await atJudge("[{id: p1, type: verified, statement: 'the tests cover the change'}]");
    expect(plain(await judge())).toMatchObject({ status: "error", error_type: "verifier_unavailable" });
    const first = await atJudge(
      "[{id: p1, type: deterministic, statement: \"file_exists('x')\"}, {id: p2, type: judged, statement: s}]",
    );
    expect(plain(await first.judge())).toMatchObject({ error_type: "PredicatePathError" });
  });
});
