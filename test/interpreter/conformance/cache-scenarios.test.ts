// The recorded result cache scenarios of 0.2.69 (scenarios-0269/cache_*.json), replayed with one
// change to their spec: the flow declares its input `n`, which the recorded spec reads without
// declaring (we reject that at plan, DIV-REF-STATIC). Every recorded response is then compared as
// in scenarios.test.ts, cache keys as CACHE_KEY_n.
import { describe, expect, it } from "vitest";
import { MemoryResultCache } from "../../../interpreter/engine/memory-result-cache";
import { makeTestApi, tempFileStore } from "../support/make-test-api";
import { runScenario, scenarioFailures } from "./run-scenario";
import { allScenarioFiles, loadScenario } from "./scenario";

const DECLARED = "    input: {n: {type: integer}}\n    steps:";

const files = allScenarioFiles().filter((f) => f.file.startsWith("cache_"));

describe("result cache scenarios of 0.2.69", () => {
  it("finds the two recorded scenarios", () => {
    expect(files.map((f) => f.file)).toEqual([
      "cache_failed_result_not_stored.json",
      "cache_hit_on_second_run.json",
    ]);
  });

  for (const file of files) {
    const recorded = loadScenario(file);
    it(recorded.name, async () => {
      expect(recorded.spec).toContain("    input: {}\n    steps:");
      const scenario = { ...recorded, spec: recorded.spec.replace("    input: {}\n    steps:", DECLARED) };
      const home = tempFileStore();
      try {
        const harness = makeTestApi({
          cwd: scenario.dir,
          store: home.store,
          resultCache: new MemoryResultCache(),
        });
        const run = await runScenario(scenario, harness);
        const failures = scenarioFailures(scenario, run, scenario.dir);
        expect(failures).toEqual([]);
      } finally {
        home.dispose();
      }
    });
  }
});
