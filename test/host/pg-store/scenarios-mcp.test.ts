// Every recorded runtime scenario (test/conformance/recorded/README.md §2) through the built
// `stratum-mcp` over stdio with the PostgreSQL store (STRATUM_STORE): one database per scenario,
// `restart` a killed and respawned server on the same database. The responses must be exactly the
// file store's (the same runner and comparison as test/mcp/scenarios.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScenario, scenarioFailures } from "../../interpreter/conformance/run-scenario";
import { loadScenario, scenarioFiles, scenariosCwd } from "../../interpreter/conformance/scenario";
import { McpHarness } from "../../mcp/support/mcp-harness";
import { type PgServer, startPostgres } from "../../support/postgres";

const files = scenarioFiles();
const cwd = scenariosCwd();
let server: PgServer;

beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.destroy());

describe("runtime scenarios over MCP on the PostgreSQL store", () => {
  it("finds the recorded scenarios", () => {
    expect(files.length).toBeGreaterThanOrEqual(45);
  });

  for (const file of files) {
    const scenario = loadScenario(file);
    it(scenario.name, async () => {
      const url = server.createDatabase("scenario");
      const harness = new McpHarness(cwd, { STRATUM_STORE: url });
      const failures: string[] = [];
      try {
        const run = await runScenario(scenario, harness);
        failures.push(...scenarioFailures(scenario, run, cwd));
      } finally {
        failures.push(...(await harness.dispose()));
      }
      // The flows live in the database, not in the file store.
      const stored = Number(
        server.psql("SELECT count(*) FROM stratum.flows", new URL(url).pathname.slice(1)),
      );
      if (scenario.actions.some((a) => a.op === "step_done") && stored === 0)
        failures.push("no flow in the database");
      if (failures.length > 0) {
        throw new Error(`${scenario.name}: ${failures.length} failure(s)\n\n${failures.join("\n\n")}`);
      }
    });
  }
});
