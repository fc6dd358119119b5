// Verdicts that mean what they say: a path counts as explored only where the interpreter accepted
// what the fuzzer's agent aimed at, a step the agent could not pass makes the verdicts suspect
// (with the interpreter's own reason) instead of proving the steps after it dead, every dead step
// says why, and a flow that never completes is an error with the loop that prevents it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/index";
import { isClosedEnsure } from "../../fuzzer/explore/closed-ensure";
import { fuzzSpec } from "../../fuzzer/index";
import { CORPUS_DIR } from "./support/corpus";

const corpus = (name: string) => readFileSync(join(CORPUS_DIR, `${name}.stratum.yaml`), "utf8");

// Step `mirror` asks for a field that is another field reversed: any agent can write that, the
// fuzzer's generators cannot.
const UNPASSABLE = `version: "0.2"
contracts:
  Pair:
    a: { type: string }
    b: { type: string }
flows:
  main:
    input:
      topic: { type: string }
    steps:
      - id: mirror
        intent: "Write a word of at least six letters and the same word reversed"
        output_contract: Pair
        ensure:
          - "result.b == result.a[::-1] and len(result.a) >= 6 and result.a != result.b"
      - id: use
        intent: "Use the pair"
        inputs:
          a: "$.steps.mirror.output.a"
      - id: publish
        intent: "Publish it"
`;

describe("soundness verdicts", () => {
  it("makes no claim past a step the agent never got accepted, and says what rejected it", async () => {
    for (const seed of [1, 42]) {
      const { report } = await fuzzSpec(UNPASSABLE, { seed, runs: 40 });
      const main = report!.soundness.main!;
      // Neither a dead step past it nor a claim that its ensure is unsatisfiable: a relation
      // between two fields is beyond what a search can settle.
      expect(report!.findings).toEqual([]);
      expect(main.no_dead_steps).toBe("suspect");
      expect(main.option_to_complete).toBe("suspect");
      const note = main.notes.find((n) => n.step === "mirror");
      expect(note?.line).toBe(11);
      expect(note?.message).toContain(
        "ensure 'result.b == result.a[::-1] and len(result.a) >= 6 and result.a != result.b' failed",
      );
      expect(report!.exhaustive).toBe(false);
    }
  }, 60_000);

  it("says why each dead step is dead, at the route that would have led there", async () => {
    const messages = async (name: string) =>
      (await fuzzSpec(corpus(name)))
        .report!.findings.filter((f) => f.code === "FUZZ-DEAD-STEP")
        .map((f) => f.message);
    expect(await messages("dead-step-1")).toEqual([
      "step 'escalate' is never dispatched on any path of the exhaustive exploration: no route into it was taken: 'audit' (on_fail) never failed on its last attempt: no conforming result failed its checks",
    ]);
    // The cause is a related place of the finding, at the route no run took.
    const [escalate] = (await fuzzSpec(corpus("dead-step-1"))).report!.findings;
    expect(escalate!.related?.map((r) => [r.path, r.message])).toEqual([
      ["flows.main.steps.audit.on_fail", "no run took this route"],
    ]);
    expect(await messages("dead-step-2")).toEqual([
      "step 'regenerate_docs' is never dispatched in 100 runs: its skip_if held on every run that reached it",
    ]);
    // The checker proves this one: the fuzzer's own reason shows only without the checker's verdicts.
    expect(await messages("dead-step-3")).toEqual([]);
    const own = await fuzzSpec(corpus("dead-step-3"), { staticControl: false });
    expect(own.report!.findings.map((f) => f.message)).toEqual([
      "step 'rollback' is never dispatched on any path of the exhaustive exploration: no route into it was taken: gate 'signoff' (on_kill) was never resolved kill (its policy: flag approves it without a person)",
    ]);
  }, 60_000);

  it("explores a flow with a loop exhaustively: coming back to a visited state ends the path", async () => {
    const { report } = await fuzzSpec(corpus("unbounded-loop-1"));
    expect(report!.exhaustive).toBe(true);
    expect(report!.paths).toBeLessThan(20);
    // Paths that went round the loop say nothing of whether every state on it can still complete.
    expect(report!.soundness.main).toMatchObject({
      option_to_complete: "not_refuted",
      no_dead_steps: "proven",
    });
  }, 60_000);

  it("reports a flow no run completes as an error at the route that closes the loop", async () => {
    const { report } = await fuzzSpec(corpus("no-completion-1"));
    const [finding] = report!.findings;
    expect(report!.findings).toHaveLength(1);
    expect(finding).toMatchObject({ code: "FUZZ-NO-COMPLETION", severity: "error", step: "fix", line: 36 });
    expect(finding!.message).toBe(
      "no run of flow 'main' completes: 'next: review' of step 'fix' sends it round 'review' → 'fix' → 'review' for ever, and every other run ends in a failure or a kill",
    );
    expect(finding!.counterexample!.calls.map((c) => c.tool)).toEqual([
      "stratum_plan",
      "stratum_step_done",
      "stratum_step_done",
    ]);
    expect(report!.soundness.main!.option_to_complete).toBe("violated");
  }, 60_000);

  it("takes what the checker proves of control from it, with a note, and does not report it again", async () => {
    const { report } = await fuzzSpec(corpus("dead-step-3"));
    expect(report!.soundness.main).toMatchObject({
      no_dead_steps: "violated",
      notes: [
        {
          step: "rollback",
          line: 49,
          message: "the checker's control analysis proves step 'rollback' never runs (SPEC-STEP-DEAD)",
        },
      ],
    });
  }, 60_000);

  it("leaves a revise loop without max_rounds to the person at the gate: no run-time finding", async () => {
    const { report } = await fuzzSpec(corpus("control-unbounded-loop-3"));
    expect(report!.findings).toEqual([]);
  }, 60_000);

  it("claims an ensure unsatisfiable only where the search covers every value its tests tell apart", () => {
    const closed = (text: string) => {
      const spec = `version: "0.2"
contracts:
  R:
    n: { type: integer }
    s: { type: string }
    xs: { type: array, items: { type: string } }
    m: { type: string }
flows:
  main:
    input:
      limit: { type: integer }
    steps:
      - id: a
        intent: "x"
        output_contract: R
        ensure: [${JSON.stringify(text)}]
`;
      const ir = checkSpec(spec).ir!;
      return isClosedEnsure(ir.flows.get("main")!.steps[0]!.ensure[0]!.ast);
    };
    expect(closed("result.n >= 95 and result.n <= 1")).toBe(true);
    expect(closed("not (result.s in ['a', 'b']) or len(result.xs) > 3")).toBe(true);
    expect(closed("int(result.s) > 2 and result.s.startswith('1')")).toBe(true);
    expect(closed("result.n == 3 or result.xs")).toBe(true);
    expect(closed("result.s == result.m")).toBe(false);
    expect(closed("result.s == result.m[::-1]")).toBe(false);
    expect(closed("result.n * 2 == 7")).toBe(false);
    expect(closed("sum([1 for x in result.xs]) == 2")).toBe(false);
    expect(closed("result.n > $.input.limit")).toBe(false);
  });
});
