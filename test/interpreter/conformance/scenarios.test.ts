// Replays every runtime scenario of test/conformance/recorded/scenarios (test/conformance/recorded/README.md §2) against the engine
// over the durable FileFlowStore (the store we ship), each in a fresh STRATUM_HOME, with the
// scenarios directory as the working directory.
import { describe, expect, it } from "vitest";
import { makeTestApi, tempFileStore } from "../support/make-test-api";
import { runScenario, scenarioFailures } from "./run-scenario";
import { loadScenario, scenarioFiles, scenariosCwd } from "./scenario";

const files = scenarioFiles();
const cwd = scenariosCwd();

describe("runtime scenarios", () => {
  it("finds the recorded scenarios", () => {
    expect(files.length).toBeGreaterThanOrEqual(45);
  });

  for (const file of files) {
    const scenario = loadScenario(file);
    it(scenario.name, async () => {
      const home = tempFileStore();
      try {
        const harness = makeTestApi({ cwd, store: home.store });
        const run = await runScenario(scenario, harness);
        const failures = scenarioFailures(scenario, run, cwd);
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
