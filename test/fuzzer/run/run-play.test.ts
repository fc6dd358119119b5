// What a step kind's play gets of the run it is part of (driver.ts `play`): data and functions of
// its own, no accessor. An object literal's getter is an accessor of that object alone, which V8
// keeps in a hidden class in the old generation: the getter's scope, the whole run, then lived
// through every young-generation collection until a full one, and a long fuzz's heap grew by
// each run in between (a 10,000-run fuzz of examples/sub-flows peaked at 228 MB).
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_MAX_CALLS } from "../../../fuzzer/fuzz-spec";
import { ScenarioDecider } from "../../../fuzzer/run/decider";
import { driveRun } from "../../../fuzzer/run/driver";
import { FUZZ_KINDS } from "../../../fuzzer/run/kinds/index";
import type { FuzzKind, KindRun } from "../../../fuzzer/run/kinds/kind";
import { setupOf } from "../support/scripted-run";

const SPEC = `version: "0.3"
contracts:
  Task:
    id: {type: string}
  Plan:
    tasks: {type: array, items: {type: Task}}
flows:
  main:
    input: {}
    steps:
      - id: plan
        type: decompose
        agent: claude
        intent: "Plan"
        output_contract: Plan
`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the run a kind plays with", () => {
  it("has no accessor of its own, and tells whether the run must stop", async () => {
    const setup = setupOf(SPEC, "main", DEFAULT_MAX_CALLS);
    // A decompose step's result is reported by its kind's play: the spy sees the run it gets.
    const kind = FUZZ_KINDS.decompose as { report: NonNullable<FuzzKind["report"]> };
    const report = vi.spyOn(kind, "report");
    for (let i = 0; i < 3; i++) {
      const outcome = await driveRun(setup, new ScenarioDecider({ inputs: {}, tape: [], pools: {} }));
      expect(outcome.end).toBe("complete");
    }
    const played: KindRun[] = report.mock.calls.map(([run]) => run);
    expect(played).toHaveLength(3);
    for (const run of played) {
      const accessors = Object.entries(Object.getOwnPropertyDescriptors(run))
        .filter(([, d]) => d.get !== undefined || d.set !== undefined)
        .map(([name]) => name);
      expect(accessors).toEqual([]);
      expect(run.stopped()).toBeNull();
    }
  });
});
