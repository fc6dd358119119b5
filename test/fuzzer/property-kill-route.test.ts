// A gate's kill routed by `on_kill`: the flow is `killed` from the kill on and goes on through the
// route's target (docs/reference/runtime.md §6.1), so a property's run does not end at the kill, and the target
// keeps what it had (a gate's route clears nothing).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { fuzzSpec } from "../../fuzzer/index";

const KILL_ROUTE = readFileSync(
  resolve(import.meta.dirname, "blind-properties/tool-issues/kill-route-ends-run.stratum.yaml"),
  "utf8",
);

const MORE = `${KILL_ROUTE}
  killed_from_the_kill_on:
    flow: main
    always: "$.gates.go.outcome != 'kill' or $.flow.status == 'killed'"
  cleanup_after_kill_runs:
    flow: main
    eventually: "$.steps.cleanup.status == 'done' or $.flow.status == 'complete'"
  never_completes_after_kill:
    flow: main
    never: "$.gates.go.outcome == 'kill' and $.flow.status == 'complete'"
`;

describe("properties after a kill routed by on_kill", () => {
  it.each([1, 2, 3])("hold: the run goes on to the cleanup (seed %i)", async (seed) => {
    const { report } = await fuzzSpec(MORE, { seed, runs: 20 });
    // Not violated; not proven either, as the revise loop (no max_rounds) cuts paths where they come back.
    for (const name of [
      "cleaned",
      "killed_from_the_kill_on",
      "cleanup_after_kill_runs",
      "never_completes_after_kill",
    ])
      expect({ name, verdict: report?.properties[name]?.verdict }).toEqual({ name, verdict: "not_refuted" });
  });
});
