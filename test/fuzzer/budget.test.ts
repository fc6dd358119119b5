// The fuzzer's agent reports `usage` in flows whose budget caps dollars or tokens
// (docs/reference/runtime.md §11.4): a little, or enough to reach a cap at once. A run that ends
// `budget_exhausted` is a legal end (counted in the flow's soundness, never a finding), and a step
// that never passed because the budget ran out there is said to have done so.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/index";
import { fuzzSpec } from "../../fuzzer/index";
import { driveRun } from "../../fuzzer/run/driver";
import { agentCanExhaust, chooseUsage, DEFAULT_USAGE_MODEL, tokensToExhaust } from "../../fuzzer/run/usage";
import { BUILT_IN_PRICING, costOf } from "../../interpreter/flow/pricing";
import { ScriptedDecider, setupOf } from "./support/scripted-run";

const spec = (budget: string, model = "") => `version: "0.2"
contracts:
  Draft:
    title: { type: string }
functions:
  write:
    mode: infer
    intent: "Write the draft"
    input: {}
    output: Draft
    ensure:
      - "len(result.title) > 0"
    retries: 2
${model}flows:
  main:
${budget}    input: {}
    steps:
      - id: draft
        function: write
        inputs: {}
      - id: publish
        intent: "Publish the draft"
        inputs:
          title: "$.steps.draft.output.title"
        output_contract: Draft
`;

const CAPPED = spec("    budget: { usd: 0.5, max_tokens: 40000 }\n");
const TOKENS_ONLY = spec("    budget: { max_tokens: 1000 }\n", '    model: "claude-haiku-4-5"\n');
const CLOCK_ONLY = spec("    budget: { ms: 60000, max_agent_dispatches: 3 }\n");

const NONE = { ms: null, usd: null, max_agent_dispatches: null, max_tokens: null };

describe("usage the agent reports", () => {
  it("is offered only where the agent can run the budget out (usd or max_tokens)", () => {
    expect(agentCanExhaust(null)).toBe(false);
    expect(agentCanExhaust({ ...NONE, ms: 1000, max_agent_dispatches: 2 })).toBe(false);
    expect(agentCanExhaust({ ...NONE, usd: 1 })).toBe(true);
    expect(agentCanExhaust({ ...NONE, max_tokens: 10 })).toBe(true);
    for (const text of [CLOCK_ONLY, spec("")]) {
      const setup = setupOf(text);
      const flow = setup.target.spec.flows.get("main")!;
      const decider = new ScriptedDecider(["exhaust"]);
      expect(chooseUsage(setup.target.spec, flow, flow.steps[0]!, decider)).toBeNull();
      expect(decider.offered).toEqual([]);
    }
  });

  it("names the function's model when the pricing table knows it, else the default", () => {
    const priced = setupOf(TOKENS_ONLY);
    const flow = priced.target.spec.flows.get("main")!;
    expect(chooseUsage(priced.target.spec, flow, flow.steps[0]!, new ScriptedDecider(["exhaust"]))).toEqual({
      input_tokens: 0,
      output_tokens: 1000,
      model: "claude-haiku-4-5",
    });
    const plain = setupOf(CAPPED);
    const main = plain.target.spec.flows.get("main")!;
    expect(chooseUsage(plain.target.spec, main, main.steps[1]!, new ScriptedDecider(["some"]))).toEqual({
      input_tokens: 1000,
      output_tokens: 500,
      model: DEFAULT_USAGE_MODEL,
    });
  });

  it("property: the exhausting usage reaches the cap it aims at, for every priced model", () => {
    const models = [...BUILT_IN_PRICING.keys()];
    fc.assert(
      fc.property(
        fc.constantFrom(...models),
        fc.double({ min: 0, max: 10_000, noNaN: true }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.boolean(),
        (model, usd, maxTokens, withTokens) => {
          const budget = { ...NONE, usd, max_tokens: withTokens ? maxTokens : null };
          const tokens = tokensToExhaust(budget, model);
          const dollars = costOf(BUILT_IN_PRICING, model, 0, tokens);
          // The charge reaches at least one cap (consumed ≥ cap), as docs/reference/runtime.md §11.4
          // counts it.
          expect(dollars >= usd || (withTokens && tokens >= maxTokens)).toBe(true);
          expect(Number.isInteger(tokens) && tokens >= 0).toBe(true);
        },
      ),
    );
  });
});

describe("runs that run the budget out", () => {
  it("end budget_exhausted at the step whose usage reached the cap", async () => {
    const run = await driveRun(setupOf(CAPPED), new ScriptedDecider(["pass", "none", "pass", "exhaust"]));
    expect(run.end).toBe("budget_exhausted");
    const done = run.calls.filter((c) => c.tool === "stratum_step_done");
    expect(done.map((c) => [c.arguments.step_id, c.arguments.usage === undefined])).toEqual([
      ["draft", true],
      ["publish", false],
    ]);
    expect(run.coverage.endings.get("main")).toEqual(new Map([["budget_exhausted|publish", 1]]));
    expect(run.observations).toEqual([]);
  });

  it("count an accepted result as passed, and a rejected one as not", async () => {
    const passed = await driveRun(setupOf(CAPPED), new ScriptedDecider(["pass", "exhaust"]));
    expect(passed.end).toBe("budget_exhausted");
    expect(passed.coverage.accepted.has("main/draft")).toBe(true);
    const failed = await driveRun(setupOf(CAPPED), new ScriptedDecider(["fail", "exhaust"]));
    expect(failed.end).toBe("budget_exhausted");
    expect(failed.coverage.accepted.has("main/draft")).toBe(false);
    expect(failed.unfaithful).toBe(false);
  });

  it("complete when the agent reports no usage", async () => {
    const run = await driveRun(setupOf(CAPPED), new ScriptedDecider(["pass", "none", "pass", "none"]));
    expect(run.end).toBe("complete");
  });

  it("are counted in the flow's soundness, and are no finding", async () => {
    const { report } = await fuzzSpec(CAPPED, { runs: 40 });
    expect(report!.findings).toEqual([]);
    expect(report!.soundness.main).toMatchObject({
      option_to_complete: "proven",
      no_dead_steps: "proven",
    });
    expect(report!.soundness.main!.budget_exhausted).toBeGreaterThan(0);
    const clock = await fuzzSpec(CLOCK_ONLY, { runs: 20 });
    expect(clock.report!.soundness.main!.budget_exhausted).toBeUndefined();
    expect(checkSpec(CLOCK_ONLY).diagnostics).toEqual([]);
  });
});
