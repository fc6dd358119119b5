// FUZZ-UNBOUNDED-LOOP means what it says: it is raised for a loop nothing in the spec bounds, never
// for a step retried within its `retries` nor for a gate's revise loop (a person decides each
// round), and its message names the counters it compared with: the step's `retries` and the flow's
// `max_rounds`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzSpec } from "../../../fuzzer/index";
import { CORPUS_DIR, notation } from "../support/corpus";

/** A drafting step with `retries` and an ensure the agent may miss, then a gate that may revise it. */
function draftAndReview(retries: number, maxRounds: number | null, before: number): string {
  const earlier = Array.from(
    { length: before },
    (_, i) => `      - id: prepare${i}\n        function: prepare\n        inputs: {goal: "$.input.goal"}\n`,
  ).join("");
  return `version: "0.2"
contracts:
  Plan:
    summary: {type: string}
    tasks: {type: array}
functions:
  prepare:
    mode: infer
    intent: "Collect what the plan needs"
    input: {goal: {type: string}}
    output: Plan
  draft_plan:
    mode: infer
    intent: "Write a short plan"
    input: {goal: {type: string}}
    output: Plan
    ensure:
      - "len(result.tasks) > 0"
    retries: ${retries}
  approve_plan:
    mode: gate
flows:
  plan:
    input: {goal: {type: string}}
    output: Plan
${maxRounds === null ? "" : `    max_rounds: ${maxRounds}\n`}    steps:
${earlier}      - id: draft
        function: draft_plan
        inputs: {goal: "$.input.goal"}
      - id: review
        function: approve_plan
        depends_on: [draft]
        on_approve: ~
        on_revise: draft
        on_kill: ~
`;
}

describe("FUZZ-UNBOUNDED-LOOP", () => {
  it("is never raised for retries and a gate's revise loop, whatever the counters (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 1, max: 1000 }),
        async (retries, maxRounds, before, seed) => {
          const { report } = await fuzzSpec(draftAndReview(retries, maxRounds, before), { seed, runs: 25 });
          expect(report?.findings.filter((f) => f.code === "FUZZ-UNBOUNDED-LOOP")).toEqual([]);
        },
      ),
      { numRuns: 5, seed: 36 },
    );
  });

  it("names the step's retries and the flow's missing max_rounds when it is raised", async () => {
    const text = readFileSync(join(CORPUS_DIR, "unbounded-loop-1.stratum.yaml"), "utf8");
    const { report } = await fuzzSpec(text);
    const found = report?.findings.filter((f) => f.code === "FUZZ-UNBOUNDED-LOOP") ?? [];
    expect(found.map(notation)).toEqual(["FUZZ-UNBOUNDED-LOOP main/diagnose:45"]);
    const message = found[0]?.message ?? "";
    expect(message).toMatch(
      /^'next: generate' of step 'diagnose' makes a loop that no counter bounds: step 'generate' was dispatched \d+ times in one run; its retries: 2 allow it 2 attempts, and flow 'main' has no max_rounds$/,
    );
    expect(message).not.toContain("counters allow");
  });

  it("names the rounds max_rounds allows when the flow has it", async () => {
    const text = readFileSync(join(CORPUS_DIR, "unbounded-loop-1.stratum.yaml"), "utf8").replace(
      "flows:\n  main:\n",
      "flows:\n  main:\n    max_rounds: 2\n",
    );
    const { report } = await fuzzSpec(text);
    const found = report?.findings.filter((f) => f.code === "FUZZ-UNBOUNDED-LOOP") ?? [];
    expect(found.map((f) => f.message)).toEqual([
      expect.stringMatching(
        /: step 'generate' was dispatched \d+ times in one run; its retries: 2 allow it 2 attempts in each of the 3 rounds max_rounds: 2 allows \(6\)$/,
      ),
    ]);
  });
});
