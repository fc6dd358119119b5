// A property condition that raises on a reachable state (None < 500 before the step ran) cannot be
// judged there: whatever its kind, the property is broken at that state, and the finding says what
// the condition raised (it never holds silently). Guard the path (`x is not None and …`).
import { describe, expect, it } from "vitest";
import { fuzzSpec } from "../../fuzzer/index";

const SPEC = `version: "0.2"
contracts:
  M:
    latency_ms: {type: integer}
flows:
  main:
    input: {}
    steps:
      - id: measure
        intent: "Measure"
        output_contract: M
properties:
  raises_always:
    flow: main
    always: "$.steps.measure.output.latency_ms < 500"
  raises_never:
    flow: main
    never: "$.steps.measure.output.latency_ms > 100000"
  raises_from:
    flow: main
    leads_to: {from: "$.steps.measure.output.latency_ms > 100000", to: "$.flow.status == 'complete'"}
  raises_eventually:
    flow: main
    eventually: "$.steps.measure.output.latency_ms >= -1000000000"
  guarded:
    flow: main
    never: "$.steps.measure.output is not None and $.steps.measure.output.latency_ms is None"
`;

describe("a property condition that raises", () => {
  it("breaks the property at the first state where it raises, whatever its kind", async () => {
    const { report } = await fuzzSpec(SPEC, { seed: 1, runs: 10 });
    const p = report?.properties ?? {};
    for (const name of ["raises_always", "raises_never", "raises_from", "raises_eventually"])
      expect({ name, verdict: p[name]?.verdict }).toEqual({ name, verdict: "violated" });
    expect(p.guarded?.verdict).not.toBe("violated");
    const never = report?.findings.find((f) => f.message.includes("'raises_never'"));
    expect(never?.message).toContain("after call 1 (stratum_plan) the condition raised TypeError");
    expect(never?.counterexample?.calls.length).toBe(1);
  });
});
