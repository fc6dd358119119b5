// `stratumc fuzz` on specs with a run budget, through the built binary (run `node scripts/build.mjs`
// after changing the CLI): the runs whose reported usage reached a cap end `budget_exhausted`, a
// legal end the summary and the JSON count, and a budget that stops every run before a result is
// accepted makes the later steps dead, with the finding saying the budget ran out.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "../run-cli";

beforeAll(() => ensureBundle());

function stratumc(args: readonly string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.FORCE_COLOR;
  const r = spawnSync(process.execPath, [join(REPO, "bin/stratumc.cjs"), ...args], {
    cwd: REPO,
    encoding: "utf8",
    env,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CAPPED = "test/fuzzer/corpus/control-dead-step-4.stratum.yaml";
const ZERO = "test/fuzzer/corpus/dead-step-4.stratum.yaml";

describe("stratumc fuzz on a budgeted flow", () => {
  it("counts the runs that ran out of budget in the summary, and finds nothing", () => {
    const r = stratumc(["fuzz", CAPPED, "--runs", "40"]);
    expect([r.status, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toContain(
      "main: option to complete proven, proper completion proven, no dead steps proven\n",
    );
    expect(r.stdout).toMatch(
      /\n {4}budget: [1-9]\d* of the runs and paths ran out of budget \(budget_exhausted, a legal end\)\n/,
    );
  });

  it("counts them in the JSON, and says where the budget stopped every run", () => {
    const r = stratumc(["fuzz", ZERO, "--runs", "40", "--format", "json"]);
    expect(r.stderr).toBe("");
    const file = JSON.parse(r.stdout).files[0];
    expect(file.soundness.main.budget_exhausted).toBe(file.runs + file.paths);
    expect(file.soundness.main.option_to_complete).toBe("violated");
    const review = file.findings.find((f: { step: string }) => f.step === "review");
    expect(review.code).toBe("FUZZ-DEAD-STEP");
    expect(review.message).toMatch(/'draft' never passed \(the flow's budget ran out there on \d+ runs\)$/);
  });
});
