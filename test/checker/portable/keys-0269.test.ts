// check --portable=0.2.50 reports the keys of 0.2.69 that 0.2.50 rejects: cache (functions and
// steps) and pre_merge_verify; against 0.2.69 (the default) and without --portable they are plain keys.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { REPO_ROOT } from "../../support/shared";

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
    const found = checkSpec(SPEC, { portable: "0.2.50" })
      .diagnostics.filter((d) => d.code === "SPEC-NOT-PORTABLE")
      .map((d) => [d.path, d.message]);
    // In document order.
    expect(found).toEqual([
      [
        "functions.calc.cache",
        "'cache' (functions) is new in stratum-mcp 0.2.69: stratum-mcp 0.2.50 rejects it",
      ],
      [
        "flows.main.steps.a.cache",
        "'cache' (steps) is new in stratum-mcp 0.2.69: stratum-mcp 0.2.50 rejects it",
      ],
      [
        "flows.main.steps.run.pre_merge_verify",
        "'pre_merge_verify' (parallel_dispatch steps) is new in stratum-mcp 0.2.69: stratum-mcp 0.2.50 rejects it",
      ],
    ]);
  });

  it("reports nothing against 0.2.69 or without --portable", () => {
    expect(checkSpec(SPEC).diagnostics).toEqual([]);
    expect(checkSpec(SPEC, { portable: true }).diagnostics).toEqual([]);
  });
});

describe("the pipeline kind of 0.2.69 under check --portable", () => {
  const pipeline = readFileSync(join(REPO_ROOT, "examples/module-review-pipeline.stratum.yaml"), "utf8");
  const notPortable = (target: true | "0.2.50") =>
    checkSpec(pipeline, { portable: target })
      .diagnostics.filter((d) => d.code === "SPEC-NOT-PORTABLE")
      .map((d) => d.message);

  it("is reported against 0.2.50 only, at its type", () => {
    expect(checkSpec(pipeline).diagnostics).toEqual([]);
    expect(notPortable(true)).toEqual([]);
    expect(notPortable("0.2.50")).toEqual([
      "type: pipeline is new in stratum-mcp 0.2.69: stratum-mcp 0.2.50 rejects it",
    ]);
  });
});
