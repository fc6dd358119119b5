// The conversion hint for FUZZ-ENSURE-RAISES messages: an ensure that raised because it converts a
// field declared string with int() or float() (read from the typed IR, not the text).
import { describe, expect, it } from "vitest";
import { conversionHint } from "../../fuzzer/index";
import { agentFor, oneStep } from "./support/agent";

describe("conversion hints for FUZZ-ENSURE-RAISES", () => {
  const text = oneStep(
    "count: { type: string }\nratio: { type: string, required: false }\nn: { type: integer }\nany_text: { type: string }",
    ["int(result.count) >= 1", "float(result.ratio) > 0.5", "int(result.n) > 0", "len(result.any_text) > 0"],
  );
  const agent = agentFor(text);
  const step = agent.step("s");

  it("names the field declared string and what to declare instead", () => {
    expect(conversionHint(agent.spec, step, 0)).toBe(
      "result.count is declared string: declare it integer (or give it a pattern) so int() cannot fail",
    );
    expect(conversionHint(agent.spec, step, 1)).toBe(
      "result.ratio is declared string: declare it number (or give it a pattern) so float() cannot fail",
    );
  });

  it("says nothing for a field declared integer, an ensure without conversion, or another error", () => {
    expect(conversionHint(agent.spec, step, 2)).toBeNull();
    expect(conversionHint(agent.spec, step, 3)).toBeNull();
    expect(conversionHint(agent.spec, step, 9)).toBeNull();
    expect(conversionHint(agent.spec, step, 0, "TypeError")).toBeNull();
    expect(conversionHint(agent.spec, step, 0, "ValueError")).not.toBeNull();
    expect(conversionHint(agent.spec, step, 1, "ValueError")).not.toBeNull();
  });

  it("reads a function step's ensures through its function", () => {
    const fn = agentFor(`version: "0.2"
contracts:
  Out:
    score: { type: string }
functions:
  grade:
    mode: infer
    intent: "Grade"
    input: {}
    output: Out
    ensure: ["float(result.score) >= 0.8"]
flows:
  main:
    input: {}
    steps:
      - id: g
        function: grade
        inputs: {}
`);
    expect(conversionHint(fn.spec, fn.step("g"), 0)).toContain("result.score is declared string");
  });
});
