// Replays every runtime scenario of test/conformance/recorded/scenarios (test/conformance/recorded/README.md §2; the 0.2.69 ones of §2.4, §5, §6 not pending)
// against the engine
// over the durable FileFlowStore (the store we ship), each in a fresh STRATUM_HOME, with the
// scenario's folder as the working directory.
import { describe, expect, it } from "vitest";
import { makeTestApi, tempFileStore } from "../support/make-test-api";
import { PENDING_0269 } from "./pending-0269";
import { runScenario, scenarioFailures } from "./run-scenario";
import { allScenarioFiles, loadScenario, scenarioFiles } from "./scenario";

const files = scenarioFiles();

describe("runtime scenarios", () => {
  it("finds the recorded scenarios", () => {
    expect(files.length).toBeGreaterThanOrEqual(45);
  });

  it("names only recorded files as pending", () => {
    const recorded = new Set(allScenarioFiles().map((f) => f.file));
    expect([...PENDING_0269].filter((name) => !recorded.has(name))).toEqual([]);
  });

  for (const file of files) {
    const scenario = loadScenario(file);
    it(scenario.name, async () => {
      const home = tempFileStore();
      try {
        const harness = makeTestApi({ cwd: scenario.dir, store: home.store });
        const run = await runScenario(scenario, harness);
        const failures = scenarioFailures(scenario, run, scenario.dir);
        failures.push(...harness.loggedErrors.map((e) => `engine logged an unexpected error: ${e}`));
        if (failures.length > 0) {
          throw new Error(`${scenario.name}: ${failures.length} failure(s)\n\n${failures.join("\n\n")}`);
        }
      } finally {
        home.dispose();
      }
    });
  }
});
