// The fuzzer plays the result cache (docs/reference/runtime.md §25.4): a run whose flow has a cached
// step sometimes plans the flow again with the same inputs once it completed, so the cached steps
// are served; what a served step gives later steps, and what the trace says of it, are checked
// (FUZZ-INTERNAL when the interpreter breaks them). No run sees another run's cache.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzSpec, fuzzTransport, type Transport } from "../../fuzzer/index";
import { ScenarioDecider } from "../../fuzzer/run/decider";
import { driveRun } from "../../fuzzer/run/driver";
import { ScriptedDecider, setupOf } from "./support/scripted-run";

const SPEC = `version: "0.2"
contracts:
  Summary:
    title: { type: string }
    words: { type: integer }
functions:
  summarize:
    mode: compute
    intent: "Summarize the document"
    input:
      doc: { type: string }
    output: Summary
    cache: true
    ensure:
      - "result.words >= 0"
flows:
  main:
    input:
      doc: { type: string }
    steps:
      - id: sum
        function: summarize
        inputs:
          doc: "$.input.doc"
      - id: post
        intent: "Post the summary"
        inputs:
          title: "$.steps.sum.output.title"
        output_contract: Summary
`;

const DOC = { doc: "release notes" };

/** `base` with each response of `tool` passed through `edit` (an interpreter that misbehaves). */
function tampered(
  base: Transport,
  tool: string,
  edit: (r: Record<string, unknown>, n: number) => void,
): Transport {
  let n = 0;
  const t: Transport = async (name, args) => {
    const answer = await base(name, args);
    if (name === tool) edit(answer.response, n++);
    return answer;
  };
  return Object.assign(t, { newRun: () => base.newRun?.() });
}

describe("a second run of the same inputs", () => {
  it("finds the cached step served: the flow goes on from the step after it", async () => {
    const run = await driveRun(setupOf(SPEC), new ScriptedDecider(["pass", "pass", "again"], DOC));
    expect(run.end).toBe("complete");
    expect(run.calls.map((c) => `${c.tool} ${String(c.arguments.step_id ?? "")}`.trim())).toEqual([
      "stratum_plan",
      "stratum_step_done sum",
      "stratum_step_done post",
      "stratum_plan",
      "stratum_step_done post",
    ]);
    expect(run.observations).toEqual([]);
  });

  it("is not made when the flow has no cached step", async () => {
    const decider = new ScriptedDecider(["pass", "pass", "again"], DOC);
    const run = await driveRun(setupOf(SPEC.replace("    cache: true\n", "")), decider);
    expect(run.calls.filter((c) => c.tool === "stratum_plan")).toHaveLength(1);
    expect(decider.offered.some((o) => o.includes("again"))).toBe(false);
  });

  it("starts with an empty cache: a run never meets what an earlier run stored", async () => {
    const setup = setupOf(SPEC);
    await driveRun(setup, new ScriptedDecider(["pass", "pass"], DOC));
    const second = await driveRun(setup, new ScriptedDecider(["pass", "pass"], DOC));
    expect(second.calls.filter((c) => c.arguments.step_id === "sum")).toHaveLength(1);
  });

  it("reports a served output the agent never reported (FUZZ-INTERNAL)", async () => {
    const setup = setupOf(SPEC);
    const lying = tampered(setup.transport, "stratum_plan", (r, n) => {
      if (n === 1 && r.inputs !== null && typeof r.inputs === "object")
        (r.inputs as Record<string, unknown>).title = "made up";
    });
    const run = await driveRun(
      { ...setup, transport: lying },
      new ScriptedDecider(["pass", "pass", "again"], DOC),
    );
    expect(run.observations.map((o) => [o.code, o.step, o.message])).toEqual([
      [
        "FUZZ-INTERNAL",
        "sum",
        `the interpreter's result cache served step 'sum' an output the agent never reported for it (step 'post' got "made up" for input 'title'): please report this bug`,
      ],
    ]);
  });

  it("reports a served step whose trace record does not say cache_hit (FUZZ-INTERNAL)", async () => {
    const setup = setupOf(SPEC);
    const forgetful = tampered(setup.transport, "stratum_audit", (r) => {
      for (const rec of Array.isArray(r.trace) ? r.trace : [])
        (rec as Record<string, unknown>).cache_hit = false;
    });
    const run = await driveRun(
      { ...setup, transport: forgetful },
      new ScriptedDecider(["pass", "pass", "again"], DOC),
    );
    expect(run.observations.map((o) => [o.code, o.step])).toEqual([["FUZZ-INTERNAL", "sum"]]);
    expect(run.observations[0]!.message).toContain("its trace record does not say cache_hit");
  });

  it("property: random runs meet the cache and the interpreter keeps its contract", async () => {
    const setup = setupOf(SPEC);
    const summary = fc.record({
      title: fc.string({ maxLength: 8 }),
      words: fc.integer({ min: -2, max: 50 }),
    });
    let served = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 10 }),
        fc.array(fc.nat(999), { maxLength: 30 }),
        fc.array(summary, { minLength: 1, maxLength: 4 }),
        async (doc, tape, results) => {
          const decider = new ScenarioDecider({
            inputs: { doc },
            tape,
            pools: { "main/sum": results, "main/post": results },
          });
          const run = await driveRun(setup, decider);
          expect(run.observations.filter((o) => o.code === "FUZZ-INTERNAL")).toEqual([]);
          const plans = run.calls.flatMap((c, i) => (c.tool === "stratum_plan" ? [i] : []));
          if (plans.length === 2 && run.end === "complete") {
            // The second flow starts at post: sum was served.
            expect(run.calls.slice(plans[1]).some((c) => c.arguments.step_id === "sum")).toBe(false);
            served++;
          }
        },
      ),
      { numRuns: 60, seed: 7 },
    );
    expect(served).toBeGreaterThan(0);
  });

  it("fuzzing a spec with a cached step finds nothing wrong", async () => {
    const { report } = await fuzzSpec(SPEC, { runs: 40 });
    expect(report!.findings).toEqual([]);
    expect(fuzzTransport(SPEC).newRun).toBeTypeOf("function");
  });
});
