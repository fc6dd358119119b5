// A property broken because `stratumc fuzz` cut the run, through the built CLI: the finding names
// what looped, `--save` writes the witness, and `stratumc replay` reproduces the same breach — in
// process and through the built MCP server — where the fuzzer stopped a loop and at the call
// limit (`--max-steps`).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RETRY_LOOP } from "../../fuzzer/support/cut-loop-specs";
import { ensureBundle, REPO } from "../run-cli";

let dir = "";
beforeAll(() => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "stratumc-cut-witness-"));
  mkdirSync(join(dir, "tmp"));
  writeFileSync(join(dir, "ship.stratum.yaml"), RETRY_LOOP);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function stratumc(args: readonly string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", TMPDIR: join(dir, "tmp") };
  delete env.FORCE_COLOR;
  delete env.STRATUM_HOME;
  const r = spawnSync(process.execPath, [join(REPO, "bin/stratumc.cjs"), ...args], {
    cwd: dir,
    encoding: "utf8",
    env,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function saveAndReplay(save: string, extra: readonly string[]) {
  const fuzz = stratumc(["fuzz", "ship.stratum.yaml", "--seed", "1", "--save", save, ...extra]);
  expect(fuzz.status, fuzz.stderr).toBe(1);
  const [file] = readdirSync(join(dir, save)).filter((f) => f.includes("property-violated"));
  expect(file).toBeDefined();
  const path = join(save, file!);
  return { fuzz, path, replay: stratumc(["replay", path]) };
}

describe("cut-run witnesses through the built CLI", () => {
  it("where the fuzzer stopped a loop: the turn is named, and replay reproduces it", () => {
    const { fuzz, path, replay } = saveAndReplay("loop", []);
    expect(fuzz.stdout).toContain(
      "the run was cut where the fuzzer stopped a loop, which counts as not satisfying it without a state where the condition holds; what looped: calls 2–4 (deploy → deploy → rollback) brought the run back to the state it was in after call 1 ('deploy' running, attempt 1)",
    );
    expect(fuzz.stdout).toContain(
      "witness: 10 calls (plan → deploy → deploy → rollback → deploy → deploy → rollback → deploy → deploy → rollback)",
    );
    expect([replay.status, replay.stderr]).toEqual([0, ""]);
    expect(replay.stdout).toMatch(
      /\nreproduced FUZZ-PROPERTY-VIOLATED: property 'ships' .* cut where the fuzzer stopped a loop.*what looped: calls 2–4/,
    );
    const server = stratumc(["replay", path, "--server", `node ${join(REPO, "bin/stratum-mcp.cjs")}`]);
    expect([server.status, server.stderr]).toEqual([0, ""]);
    expect(server.stdout).toContain("\nreproduced FUZZ-PROPERTY-VIOLATED: property 'ships'");
  }, 120_000);

  it("at the call limit: the witness is --max-steps long and replay cuts it at the same call", () => {
    const { fuzz, replay } = saveAndReplay("limit", ["--max-steps", "5"]);
    expect(fuzz.stdout).toContain("the run was cut at the fuzzer's call limit (5 calls)");
    expect(fuzz.stdout).toContain("what looped: calls 2–4 (deploy → deploy → rollback)");
    expect(fuzz.stdout).toMatch(/witness: 5 calls \(plan → deploy → deploy → rollback → deploy\)/);
    expect([replay.status, replay.stderr]).toEqual([0, ""]);
    expect(replay.stdout).toContain("cut at the fuzzer's call limit (5 calls)");
  }, 120_000);
});
