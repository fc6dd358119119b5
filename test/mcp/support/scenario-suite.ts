// The recorded runtime scenarios (test/conformance/recorded/README.md §2) replayed through the
// built `stratum-mcp` over stdio, one server process per scenario, `restart` a killed and
// respawned process, `age_gate` the server's wall clock moved on; responses compared exactly as
// the in-process replay compares them (the same runner). Shared by the file store's suite
// (test/mcp/scenarios.test.ts) and the PostgreSQL store's (test/host/pg-store/scenarios-mcp.test.ts).
import { expect, it } from "vitest";
import { runScenario, scenarioFailures } from "../../interpreter/conformance/run-scenario";
import { loadScenario, type Scenario, scenarioFiles } from "../../interpreter/conformance/scenario";
import { McpHarness } from "./mcp-harness";

export interface ScenarioSuiteOptions {
  /** More environment of each scenario's server processes (a fresh store, for instance). */
  env?(scenario: Scenario): Readonly<Record<string, string>>;
  /** More failures to report once the scenario ran (what its store holds, for instance). */
  after?(scenario: Scenario, env: Readonly<Record<string, string>>): string[];
}

/** Registers one test per recorded scenario (call inside a describe). */
export function scenarioSuite(options: ScenarioSuiteOptions = {}): void {
  const files = scenarioFiles();
  it("finds the recorded scenarios", () => {
    expect(files.length).toBeGreaterThanOrEqual(45);
  });
  for (const file of files) {
    const scenario = loadScenario(file);
    it(scenario.name, async () => {
      const env = options.env?.(scenario) ?? {};
      const cwd = scenario.dir;
      const harness = new McpHarness(cwd, env);
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
      failures.push(...(options.after?.(scenario, env) ?? []));
      if (failures.length > 0) {
        throw new Error(`${scenario.name}: ${failures.length} failure(s)\n\n${failures.join("\n\n")}`);
      }
    });
  }
}
