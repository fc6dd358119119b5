// `fuzz` and `replay` through the built binaries (run `npm run build` after changing the CLI):
// the fuzzer loaded lazily inside the bundle, the MCP client from its own bundle
// (dist/mcp-client.cjs), and a saved counterexample replayed against the built MCP server over
// stdio.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "../run-cli";
import { DEFECT, DEFECT_LINE, run } from "./harness";

let dir = "";
beforeAll(() => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "stratumc-fuzz-bin-"));
  mkdirSync(join(dir, "tmp"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `node bin/stratumc.cjs ARGS` in the repository, with TMPDIR inside the test's directory. */
function stratumc(args: readonly string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", TMPDIR: join(dir, "tmp") };
  delete env.FORCE_COLOR;
  delete env.STRATUM_HOME;
  const r = spawnSync(process.execPath, [join(REPO, "bin/stratumc.cjs"), ...args], {
    cwd: REPO,
    encoding: "utf8",
    env,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the built binaries", () => {
  it("node bin/stratumc.cjs fuzz prints what the sources print", async () => {
    const args = ["fuzz", DEFECT, "--runs", "30", "--format", "json"];
    const built = stratumc(args);
    expect([built.status, built.stderr]).toEqual([1, ""]);
    expect(built.stdout).toBe((await run(args)).out);
  });

  it("replay --server reproduces a saved counterexample through the built MCP server over stdio", async () => {
    const save = join(dir, "saved");
    expect((await run(["fuzz", DEFECT, "--runs", "30", "--save", save])).code).toBe(1);
    const file = join(save, `ensure-raises-1-fuzz-ensure-raises-${DEFECT_LINE}.json`);
    const replay = stratumc(["replay", file, "--server", "node bin/stratum-mcp.cjs"]);
    expect([replay.status, replay.stderr]).toEqual([0, ""]);
    expect(replay.stdout).toContain('\n→ stratum_step_done {"flow_id": "<flow-1>", "step_id": "describe"');
    expect(replay.stdout).toMatch(/\nreproduced FUZZ-ENSURE-RAISES: .*\n$/);
    // The server's STRATUM_HOME was a temporary directory, removed afterwards.
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
  });
});
