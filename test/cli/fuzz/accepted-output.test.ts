// End to end through the built binaries: `stratumc fuzz --format json` judges properties over a
// sub-flow's output and an accumulating loop's merged fields (one violated with its finding, one
// holding), and the saved witness of the violation reproduces through the built stratum-mcp, whose
// events carry the stored outputs as JSON.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCUMULATE, SUB_FLOW } from "../../fuzzer/support/accepted-output-specs";
import { ensureBundle, REPO } from "../run-cli";

let dir = "";
beforeAll(() => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "stratumc-accepted-output-"));
  mkdirSync(join(dir, "tmp"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

interface FileJson {
  readonly properties: Record<string, { verdict: string }>;
  readonly findings: { code: string; message: string }[];
}

describe("stratumc fuzz over outputs the step's own result does not show", () => {
  it.each([
    ["sub-flow", SUB_FLOW, "few_issues", "count_not_negative", "not_refuted"],
    ["accumulate", ACCUMULATE, "one_link_at_most", "count_matches_list", "not_refuted"],
  ])(
    "judges the %s properties, and the witness replays through the built server",
    (name, spec, broken, held, verdict) => {
      const path = join(dir, `${name}.stratum.yaml`);
      writeFileSync(path, spec);
      const save = join(dir, `saved-${name}`);
      const r = stratumc(["fuzz", path, "--runs", "40", "--format", "json", "--save", save]);
      expect([r.status, r.stderr]).toEqual([1, ""]);
      const file = (JSON.parse(r.stdout) as { files: FileJson[] }).files[0]!;
      expect(file.properties[broken]?.verdict).toBe("violated");
      expect(file.properties[held]?.verdict).toBe(verdict);
      expect(file.findings.filter((f) => f.code === "FUZZ-PROPERTY-VIOLATED").map((f) => f.message)).toEqual([
        expect.stringContaining(`property '${broken}'`),
      ]);
      const [saved] = readdirSync(save).filter((f) => f.includes("fuzz-property-violated"));
      expect(saved).toBeDefined();
      const replay = stratumc(["replay", join(save, saved!), "--server", "node bin/stratum-mcp.cjs"]);
      expect([replay.status, replay.stderr]).toEqual([0, ""]);
      expect(replay.stdout).toMatch(/\nreproduced FUZZ-PROPERTY-VIOLATED: property '.*\n$/);
    },
    120_000,
  );
});
