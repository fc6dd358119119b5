// The recorded pipeline scenarios of reference 0.2.69 (scenarios/v0269_pipeline_*.json) replayed
// against the engine with four keys taken out of the recorded answers: `trace[].cache_hit`, `cache_key`,
// `cache_hits` (the cache of 0.2.69) and the failure envelope's `bounced_tasks` (its merge queue),
// which belong to other features. Everything a pipeline does on the consumer path is compared:
// the unfolded task graph of the payload, the element collapse, require over elements, the
// certificates, the aggregate, retries and the fanout refusal. Once those keys are implemented the
// scenarios leave PENDING_0269 and the ordinary replay covers them.
import { describe, expect, it } from "vitest";
import { PENDING_0269 } from "../../conformance/pending-0269";
import { runScenario, scenarioFailures } from "../../conformance/run-scenario";
import { allScenarioFiles, loadScenario, type Scenario } from "../../conformance/scenario";
import { makeTestApi, tempFileStore } from "../../support/make-test-api";

const OTHER_FEATURES: ReadonlySet<string> = new Set([
  "cache_hit",
  "cache_key",
  "cache_hits",
  "bounced_tasks",
]);

function without(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(without);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!OTHER_FEATURES.has(k)) out[k] = without(v);
  return out;
}

const files = allScenarioFiles().filter(
  (f) => f.file.startsWith("v0269_pipeline_") && PENDING_0269.has(f.file),
);

describe("pipeline scenarios of 0.2.69 (consumer path)", () => {
  it("finds the pipeline recordings still pending on other features", () => {
    expect(files.length).toBe(9);
  });

  for (const file of files) {
    const recorded = loadScenario(file);
    const scenario: Scenario = {
      ...recorded,
      reference: recorded.reference.map((r) => ({
        ...r,
        response: without(r.response) as typeof r.response,
      })),
    };
    it(scenario.name, async () => {
      const home = tempFileStore();
      try {
        const harness = makeTestApi({ cwd: scenario.dir, store: home.store });
        const run = await runScenario(scenario, harness);
        const failures = scenarioFailures(scenario, run, scenario.dir);
        expect(failures).toEqual([]);
        expect(harness.loggedErrors).toEqual([]);
      } finally {
        home.dispose();
      }
    });
  }
});
