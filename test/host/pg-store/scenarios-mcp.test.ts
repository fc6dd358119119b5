// Every recorded runtime scenario (test/conformance/recorded/README.md §2) through the built
// `stratum-mcp` over stdio with the PostgreSQL store (STRATUM_STORE): one database per scenario,
// `restart` a killed and respawned server on the same database. The responses must be exactly the
// file store's (the same suite as test/mcp/scenarios.test.ts, support/scenario-suite.ts), and the
// flows must be in the database.
import { afterAll, beforeAll, describe } from "vitest";
import { scenarioSuite } from "../../mcp/support/scenario-suite";
import { type PgServer, startPostgres } from "../../support/postgres";

let server: PgServer;
// Starting PostgreSQL takes seconds on a loaded machine (the other files of this folder allow 60 s).
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(() => server?.destroy());

describe("runtime scenarios over MCP on the PostgreSQL store", () => {
  scenarioSuite({
    env: () => ({ STRATUM_STORE: server.createDatabase("scenario") }),
    after: (scenario, env) => {
      const database = new URL(env.STRATUM_STORE!).pathname.slice(1);
      const stored = Number(server.psql("SELECT count(*) FROM stratum.flows", database));
      // A plan that made a flow (recorded with a flow id) must have stored it in the database,
      // unless we refuse that plan on purpose (a divergence covering the plan, op 0).
      const planned = (scenario.reference[0]?.response as { flow_id?: unknown } | undefined)?.flow_id;
      const refusedOnPurpose = scenario.expect_divergences.some((d) => d.ops.includes(0));
      return planned !== undefined && !refusedOnPurpose && stored === 0 ? ["no flow in the database"] : [];
    },
  });
});
