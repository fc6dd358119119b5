// Success with an accumulator (docs/reference/runtime.md §4.6 step 1): the stored output gains `accumulated` and
// `accumulated_count`; ensure sees the raw result; the iteration outcome is consumed.
import { describe, expect, it } from "vitest";
import { encodeWire } from "../../../interpreter/wire/encode";
import { harness, planOk, result, stored } from "./api-fixtures";

const SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: hunt
        intent: "Hunt"
        max_iterations: 5
        accumulate: "result.findings"
        ensure: ["'accumulated' not in result"]
      - id: next
        intent: "Next"
`;

describe("accumulator merge", () => {
  it("merges the accumulated items into the stored output and consumes the loop state", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC);
    const id = String(plan.flow_id);
    await h.api.iterationStart({ flow_id: id, step_id: "hunt" });
    await h.api.iterationReport({ flow_id: id, step_id: "hunt", result: result('{"findings": [1, 2]}') });
    await h.api.iterationReport({ flow_id: id, step_id: "hunt", result: result('{"findings": [2, 3]}') });
    await h.api.iterationAbort({ flow_id: id, step_id: "hunt", reason: "enough" });
    const r = await h.api.stepDone({ flow_id: id, step_id: "hunt", result: result('{"summary": "s"}') });
    expect(r.step_id).toBe("next");
    const state = await stored(h.store, id);
    expect(encodeWire(state.step_outputs.get("hunt")!)).toBe(
      '{"summary": "s", "accumulated": [1, 2, 3], "accumulated_count": 3}',
    );
    expect(state.iteration_accumulator.size).toBe(0);
    expect(state.iteration_outcome.size).toBe(0);
  });
});
