// The smallest witness: a revise round the finding does not need is left out, and the values an
// agent or a caller chose become the simplest ones that still show it (the interpreter answering
// every call as before), never leaving an input's declared `values`.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/index";
import { virtualFiles } from "../../fuzzer/engine";
import { minimizeWitness } from "../../fuzzer/explore/minimize";
import type { WireCall } from "../../fuzzer/index";
import { fuzzTarget } from "../../fuzzer/target";
import { Shapes } from "../../fuzzer/values/shapes";

const SPEC = `version: "0.2"
contracts:
  Draft:
    text: { type: string }
  Check:
    verdict: { type: string }
    items: { type: array, items: { type: integer } }
functions:
  approve_draft:
    mode: gate
    intent: "Approve the draft"
flows:
  main:
    input:
      topic: { type: string }
      mode: { type: string, values: [quick, full] }
    steps:
      - id: draft
        intent: "Draft it"
        output_contract: Draft
      - id: review
        function: approve_draft
        on_approve: check
        on_revise: draft
        on_kill: null
      - id: check
        intent: "Check it"
        output_contract: Check
        ensure:
          - "result.verdict != 'x' or result.items[3] == 0"
`;

const step = (step_id: string, result: unknown): WireCall => ({
  tool: "stratum_step_done",
  arguments: { flow_id: "<flow-1>", step_id, result },
});
const gate = (outcome: string): WireCall => ({
  tool: "stratum_gate_resolve",
  arguments: { flow_id: "<flow-1>", step_id: "review", outcome, rationale: "r", resolved_by: "human" },
});

describe("minimizeWitness", () => {
  it("drops a revise round and simplifies the values the finding does not need", async () => {
    const target = fuzzTarget(checkSpec(SPEC))!;
    const ctx = {
      target,
      shapes: new Shapes(target.spec, target.literals),
      files: virtualFiles(target.literals.strings),
    };
    const calls: WireCall[] = [
      {
        tool: "stratum_plan",
        arguments: { spec: SPEC, flow: "main", inputs: { topic: "?wkYGB~", mode: "full" } },
      },
      step("draft", { text: "a first draft that is long" }),
      gate("revise"),
      step("draft", { text: "a second draft" }),
      gate("approve"),
      step("check", { verdict: "x", items: [4, 5, 6] }),
    ];
    const { calls: smallest, observation } = await minimizeWitness(ctx, calls, {
      identity: "FUZZ-ENSURE-RAISES|main|check|ensure:0",
      code: "FUZZ-ENSURE-RAISES",
      flow: "main",
      step: "check",
    });
    expect(observation?.code).toBe("FUZZ-ENSURE-RAISES");
    expect(smallest).toEqual([
      { tool: "stratum_plan", arguments: { spec: SPEC, flow: "main", inputs: { topic: "", mode: "full" } } },
      step("draft", { text: "" }),
      gate("approve"),
      // 'x' is what makes it raise; the list only has to be shorter than four.
      step("check", { verdict: "x", items: [] }),
    ]);
  });

  it("keeps the witness when the calls do not show the finding", async () => {
    const target = fuzzTarget(checkSpec(SPEC))!;
    const ctx = { target, shapes: new Shapes(target.spec, target.literals), files: null };
    const calls: WireCall[] = [
      {
        tool: "stratum_plan",
        arguments: { spec: SPEC, flow: "main", inputs: { topic: "t", mode: "quick" } },
      },
    ];
    const out = await minimizeWitness(ctx, calls, {
      identity: "FUZZ-ENSURE-RAISES|main|check|ensure:0",
      code: "FUZZ-ENSURE-RAISES",
      flow: "main",
      step: "check",
    });
    expect(out).toEqual({ calls, observation: null, sharedCalls: 0 });
  });
});
