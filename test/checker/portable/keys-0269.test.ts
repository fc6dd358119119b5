// check --portable reports the keys of 0.2.69 that 0.2.50 rejects: cache (functions and steps)
// and pre_merge_verify; without --portable they are plain keys.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";

const SPEC = `version: "0.3"
contracts:
  Out:
    v: {type: string}
functions:
  calc:
    mode: compute
    intent: c
    input: {}
    output: Out
    cache: true
flows:
  main:
    input: {tasks: {type: array}}
    steps:
      - id: a
        function: calc
        inputs: {}
        cache: true
      - id: run
        type: parallel_dispatch
        source: "$.input.tasks"
        intent_template: "Do {task.id}"
        pre_merge_verify: "npm test"
`;

describe("keys of 0.2.69 under check --portable", () => {
  it("reports cache on the function and the step, and pre_merge_verify, at their keys", () => {
    const found = checkSpec(SPEC, { portable: true })
      .diagnostics.filter((d) => d.code === "SPEC-NOT-PORTABLE")
      .map((d) => [d.path, d.message]);
    // In document order.
    expect(found).toEqual([
      [
        "functions.calc.cache",
        "'cache' (functions) needs stratum-mcp 0.2.69: stratum-mcp 0.2.50 rejects it (a key of 0.2.69)",
      ],
      [
        "flows.main.steps.a.cache",
        "'cache' (steps) needs stratum-mcp 0.2.69: stratum-mcp 0.2.50 rejects it (a key of 0.2.69)",
      ],
      [
        "flows.main.steps.run.pre_merge_verify",
        "'pre_merge_verify' (parallel_dispatch steps) needs stratum-mcp 0.2.69: stratum-mcp 0.2.50 rejects it (a key of 0.2.69)",
      ],
    ]);
  });

  it("reports nothing without --portable", () => {
    expect(checkSpec(SPEC).diagnostics).toEqual([]);
  });
});
