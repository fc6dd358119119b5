// stratum_fuzz through the built stratum-mcp over stdio: an agent fuzzes the plan it
// just wrote; findings come back located, with the calls that reproduce them.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wireToPlain } from "../../interpreter/wire/encode";
import { CORPUS_DIR } from "../fuzzer/support/corpus";
import { callTool } from "./support/mcp-api";
import { type RunningServer, startServer, tempDir } from "./support/server";

const DEFECT = readFileSync(`${CORPUS_DIR}/ensure-raises-1.stratum.yaml`, "utf8");

describe("stratum_fuzz over stdio", () => {
  const home = tempDir("stratum-mcp-fuzz-");
  let server: RunningServer;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startServer({ cwd: home.path, home: home.path });
  });

  afterAll(async () => {
    await server?.closeInput();
    home.dispose();
  });

  it("reports the finding at its line with a counterexample that starts with stratum_plan", async () => {
    const { response, isError } = await callTool(
      server.client,
      "stratum_fuzz",
      { spec: DEFECT, runs: 30 },
      problems,
    );
    const r = wireToPlain(response) as Record<string, unknown>;
    expect(isError).toBe(false);
    expect(r.status).toBe("fuzzed");
    expect(r.errors).toBe(1);
    const [finding] = r.findings as Record<string, unknown>[];
    expect(finding).toMatchObject({ code: "FUZZ-ENSURE-RAISES", flow: "main", step: "describe", line: 23 });
    const counterexample = finding?.counterexample as { calls: { tool: string }[] } | undefined;
    expect(counterexample?.calls[0]?.tool).toBe("stratum_plan");
    expect(problems).toEqual([]);
  });

  it("answers an invalid spec with its errors and an unknown flow with flow_not_found", async () => {
    const invalid = wireToPlain(
      (await callTool(server.client, "stratum_fuzz", { spec: "version: 1\n" }, problems)).response,
    );
    expect(invalid).toMatchObject({ status: "error", error_type: "invalid_spec" });
    const unknown = wireToPlain(
      (await callTool(server.client, "stratum_fuzz", { spec: DEFECT, flow: "nope" }, problems)).response,
    );
    expect(unknown).toMatchObject({ status: "error", error_type: "flow_not_found" });
    expect(problems).toEqual([]);
  });

  it("leaves the server's own flow store alone", async () => {
    await callTool(server.client, "stratum_fuzz", { spec: DEFECT, runs: 10 }, problems);
    const { readdirSync, existsSync } = await import("node:fs");
    const flows = `${home.path}/flows`;
    expect(existsSync(flows) ? readdirSync(flows) : []).toEqual([]);
  });
});
