// Replays every runtime scenario of test/conformance/recorded/scenarios (test/conformance/recorded/README.md §2) through
// the built `stratum-mcp` over stdio on the file store: one server process per scenario (cwd: the
// scenarios directory, STRATUM_HOME: a fresh temporary directory); see support/scenario-suite.ts.
import { describe } from "vitest";
import { scenarioSuite } from "./support/scenario-suite";

describe("runtime scenarios over MCP (stdio, built stratum-mcp)", () => {
  scenarioSuite();
});
