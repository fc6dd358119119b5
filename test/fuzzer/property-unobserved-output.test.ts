// A property that reads the output of a step whose output the fuzzer does not see (a parallel
// step's aggregate, a sub-flow's output, an accumulating loop's merged fields, a cached result):
// the fuzzer must neither report it violated because it read None there (a false alarm) nor prove
// it (states went unchecked). It is `suspect`, and a property the same run can judge is unaffected.
import { describe, expect, it } from "vitest";
import { fuzzSpec } from "../../fuzzer/index";

const SPEC = `version: "0.3"
contracts:
  Files:
    files: {type: array}
  Note:
    text: {type: string}
functions:
  list:
    mode: infer
    intent: "List the files"
    input: {}
    output: Files
flows:
  main:
    input: {}
    steps:
      - id: seed
        function: list
        inputs: {}
      - id: review
        type: parallel_dispatch
        source: "$.steps.seed.output.files"
        intent_template: "Review {item}"
        agent: claude
        require: any
        depends_on: [seed]
properties:
  reviewed_has_output:
    flow: main
    always: "$.steps.review.status != 'done' or $.steps.review.output != None"
  seed_has_output:
    flow: main
    always: "$.steps.seed.status != 'done' or $.steps.seed.output != None"
`;

describe("a property reading an output the fuzzer does not see", () => {
  it.each([1, 7])(
    "is suspect, never violated, and a property it can judge keeps its verdict (seed %i)",
    async (seed) => {
      const { report } = await fuzzSpec(SPEC, { seed, runs: 30 });
      expect(report?.findings.filter((f) => f.code === "FUZZ-PROPERTY-VIOLATED")).toEqual([]);
      expect(report?.properties.reviewed_has_output?.verdict).toBe("suspect");
      expect(report?.properties.seed_has_output?.verdict).not.toBe("violated");
      expect(report?.properties.seed_has_output?.verdict).not.toBe("suspect");
    },
  );
});
