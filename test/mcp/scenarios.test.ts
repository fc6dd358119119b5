// Replays every runtime scenario of test/conformance/recorded/scenarios (test/conformance/recorded/README.md §2) through
// the built `stratum-mcp` over stdio: one server process per scenario (cwd: the scenarios
// directory, STRATUM_HOME: a fresh temporary directory), every action a real tool call, `restart`
// a killed and respawned process, `age_gate` the server's wall clock moved on. Responses are
// compared exactly as the in-process replay compares them (the same runner).
import { describe, expect, it } from "vitest";
import { runScenario, scenarioFailures } from "../interpreter/conformance/run-scenario";
import { loadScenario, scenarioFiles, scenariosCwd } from "../interpreter/conformance/scenario";
import { McpHarness } from "./support/mcp-harness";

const files = scenarioFiles();
const cwd = scenariosCwd();

describe("runtime scenarios over MCP (stdio, built stratum-mcp)", () => {
  it("finds the recorded scenarios", () => {
    expect(files.length).toBeGreaterThanOrEqual(45);
  });

  for (const file of files) {
    const scenario = loadScenario(file);
    it(scenario.name, async () => {
      const harness = new McpHarness(cwd);
      const failures: string[] = [];
      try {
        const run = await runScenario(scenario, harness);
        failures.push(...scenarioFailures(scenario, run, cwd));
      } finally {
        failures.push(...(await harness.dispose()));
      }
      const restarts = scenario.actions.filter((a) => a.op === "restart").length;
      if (harness.starts !== 1 + restarts) {
        failures.push(`${harness.starts} server processes for ${restarts} restart(s)`);
      }
      if (failures.length > 0) {
        throw new Error(`${scenario.name}: ${failures.length} failure(s)\n\n${failures.join("\n\n")}`);
      }
    });
  }
});
