// Property: a flow driven at random on a spec (results that pass or fail the ensure, every gate
// outcome, skips by hand, finished or left running) replays against that same spec through every
// recorded answer without a divergence.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replayFlow, replayTarget } from "../../../fuzzer/index";
import { MemoryStore } from "../../../interpreter/index";
import { fromJsonValue } from "../../../stdlib/index";
import { storedState } from "../../support/stored-flow";
import { engineOver, V1 } from "./record";

type Plain = Record<string, unknown>;

interface Choice {
  readonly size: number;
  readonly outcome: "approve" | "revise" | "kill";
  readonly skip: boolean;
}

const choice = fc.record({
  size: fc.integer({ min: 0, max: 9 }),
  outcome: fc.constantFrom("approve", "revise", "kill"),
  skip: fc.boolean(),
}) as fc.Arbitrary<Choice>;

async function randomFlow(choices: readonly Choice[]) {
  const store = new MemoryStore();
  const api = engineOver(store);
  let r = (await api.plan({
    spec: V1,
    flow: "release",
    inputs: fromJsonValue({ version: "1" }),
  })) as unknown as Plain;
  const flow_id = String(r.flow_id);
  for (const c of choices) {
    const step_id = String(r.step_id ?? "");
    const status = String(r.status);
    if (status === "await_gate") {
      r = (await api.gateResolve({
        flow_id,
        step_id,
        outcome: c.outcome,
        rationale: "",
        resolved_by: "human",
      })) as unknown as Plain;
      if (r.error_type === "max_rounds_exceeded") r = { status, step_id };
    } else if (["execute_step", "ensure_failed", "schema_failed"].includes(status)) {
      if (c.skip && step_id === "notes") {
        r = (await api.skipStep({ flow_id, step_id, reason: "by hand" })) as unknown as Plain;
      } else {
        const result =
          step_id === "build"
            ? { artifact: "a", size: c.size }
            : step_id === "notes"
              ? { text: "n" }
              : { url: "u" };
        r = (await api.stepDone({ flow_id, step_id, result: fromJsonValue(result) })) as unknown as Plain;
      }
    } else break;
  }
  const state = await storedState(store, flow_id);
  if (state === null) throw new Error("not stored");
  return state;
}

describe("replay against the recorded spec", () => {
  it("never diverges and replays every recorded answer", async () => {
    const target = replayTarget(V1);
    if (target === null) throw new Error("V1 does not check");
    await fc.assert(
      fc.asyncProperty(fc.array(choice, { maxLength: 14 }), async (choices) => {
        const state = await randomFlow(choices);
        const report = await replayFlow(target, state);
        expect(report.divergence).toBeNull();
        expect(report.unjudged).toBeNull();
        expect(report.replayed).toBe(report.entries);
      }),
      { numRuns: 40, seed: 34 },
    );
  }, 120_000);
});
