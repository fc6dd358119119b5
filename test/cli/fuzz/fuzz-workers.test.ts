// `stratumc fuzz --jobs` and `check --deep` over worker threads (cli/fuzz-workers.ts). The pool
// with a stand-in worker that crashes or hangs on some specs: each such spec is reported at the
// spec (FUZZ-WORKER-FAILED, no stack), the worker is replaced, the others are answered, in input
// order. Through the built binary: the same report bytes for any --jobs.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/index";
import { fuzzSpecs, HANG_GRACE_MS, type SpecOutcome, shareDeadline } from "../../../cli/fuzz-workers";
import { ensureBundle, REPO } from "../run-cli";

const FLAKY = join(REPO, "test/cli/fuzz/fixtures/flaky-spec-worker.cjs");

function spec(note: string) {
  return checkSpec(`# ${note}\nversion: "0.1"\nfunctions: {}\nflows: {}\n`);
}

function kinds(outcomes: readonly SpecOutcome[]): string[] {
  return outcomes.map((o) => (o.kind === "failed" ? `failed: ${o.diagnostic.message}` : o.kind));
}

describe("the worker pool", () => {
  it("reports a crashed worker at its spec, without the stack, and goes on with a new worker", async () => {
    const specs = ["a", "CRASH", "b", "c", "CRASH again", "d"].map(spec);
    const outcomes = await fuzzSpecs(specs, { jobs: 2, fuzz: {}, script: FLAKY });
    const crashed =
      "failed: the fuzzer stopped on this spec without a report: its worker crashed: boom in the fuzzer";
    expect(kinds(outcomes)).toEqual(["fuzzed", crashed, "fuzzed", "fuzzed", crashed, "fuzzed"]);
    const failure = outcomes[1];
    expect(
      failure?.kind === "failed" ? [failure.diagnostic.code, failure.diagnostic.severity] : null,
    ).toEqual(["FUZZ-WORKER-FAILED", "error"]);
  });

  it("reports a spec that hangs its worker past its share of the time budget, and fuzzes the rest", async () => {
    const started = Date.now();
    const outcomes = await fuzzSpecs(["a", "HANG", "b", "c"].map(spec), {
      jobs: 2,
      fuzz: {},
      script: FLAKY,
      deadlineAt: started + 400,
    });
    expect(kinds(outcomes)).toEqual([
      "fuzzed",
      `failed: the fuzzer stopped on this spec without a report: it did not answer within ${HANG_GRACE_MS / 1000} s of its time budget`,
      "fuzzed",
      "fuzzed",
    ]);
    // The budget and the grace, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(400 + HANG_GRACE_MS + 3000);
  });
});

describe("the share of the time budget", () => {
  it("is what is left over the rounds to come: never past the budget, all of it in the last round", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 8 }),
        (now, left, notStarted, lanes) => {
          const share = shareDeadline(now + left, now, notStarted, lanes) - now;
          expect(share).toBeGreaterThanOrEqual(0);
          expect(share).toBeLessThanOrEqual(left);
          if (notStarted <= lanes) expect(share).toBe(left);
          else expect(share).toBeCloseTo(left / Math.ceil(notStarted / lanes));
        },
      ),
    );
    // --jobs 1, three specs, 3 s: a third, then half of what is left, then the rest.
    // Each spec here takes its whole share; one that ends early leaves the rest to the others.
    expect([
      shareDeadline(3000, 0, 3, 1),
      shareDeadline(3000, 1000, 2, 1),
      shareDeadline(3000, 2000, 1, 1),
    ]).toEqual([1000, 2000, 3000]);
    expect(shareDeadline(3000, 200, 2, 1)).toBe(1600);
    // A deadline already past gives no time at all.
    expect(shareDeadline(100, 500, 4, 2)).toBe(500);
  });
});

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

const CORPUS = readdirSync(join(REPO, "test/fuzzer/corpus"))
  .filter((f) => f.endsWith(".stratum.yaml"))
  .sort()
  .map((f) => `test/fuzzer/corpus/${f}`);

describe("the same report for any --jobs (built binary)", () => {
  beforeAll(() => ensureBundle());

  it("fuzz examples/ gives the same bytes with --jobs 1, 2 and 3", () => {
    const args = ["fuzz", "examples/", "--runs", "3", "--format", "json"];
    const [one, two, three] = ["1", "2", "3"].map((j) => stratumc([...args, "--jobs", j]));
    expect([one?.status, one?.stderr]).toEqual([1, ""]);
    expect(one?.stdout).toContain("examples/routing.stratum.yaml");
    expect(two).toEqual(one);
    expect(three).toEqual(one);
  }, 120_000);

  it("over subsets of the seeded-defect corpus and job counts", () => {
    fc.assert(
      fc.property(
        fc.subarray(CORPUS, { minLength: 2, maxLength: 5 }),
        fc.integer({ min: 2, max: 4 }),
        (files, jobs) => {
          const args = ["fuzz", ...files, "--runs", "5", "--format", "json"];
          const alone = stratumc([...args, "--jobs", "1"]);
          expect(stratumc([...args, "--jobs", String(jobs)])).toEqual(alone);
          expect(JSON.parse(alone.stdout).files.map((f: { file: string }) => f.file)).toEqual(files);
        },
      ),
      { numRuns: 3 },
    );
  }, 120_000);

  it("check --deep over a directory gives the same bytes with --jobs 1 and 2", () => {
    const one = stratumc(["check", "--deep", "examples/", "--jobs", "1"]);
    expect(one.stdout).toContain("examples/routing.stratum.yaml");
    expect(stratumc(["check", "--deep", "examples/", "--jobs", "2"])).toEqual(one);
  }, 120_000);
});
