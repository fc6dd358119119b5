// The V8 startup snapshot built by scripts/build.mjs (dist/stratumc.blob) must behave exactly like
// the plain bundle: nothing that depends on the process (arguments, environment, working directory,
// standard input, terminal) may be frozen into the snapshot at build time.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROKEN, REPO, TYPICAL } from "./cli-fixtures";

const BUNDLE = join(REPO, "dist/stratumc.cjs");
const BLOB = join(REPO, "dist/stratumc.blob");
const CHECK_BLOB = join(REPO, "dist/stratumc-check.blob");
const EXPLORE_BLOB = join(REPO, "dist/stratumc-explore.blob");
/** Enough broken specs that a report (160 KB pretty, more as JSON) overfills a pipe (64 KB on Linux). */
const MANY = 200;

let dir: string;

beforeAll(() => {
  if (!existsSync(BLOB)) {
    // `npm test` builds first; a missing blob means this run built without it (see below).
    spawnSync(process.execPath, [join(REPO, "scripts/build.mjs")], { cwd: REPO, encoding: "utf8" });
  }
  dir = mkdtempSync(join(tmpdir(), "stratumc-snapshot-"));
  mkdirSync(join(dir, "specs/nested"), { recursive: true });
  writeFileSync(join(dir, "specs/broken.stratum.yaml"), BROKEN);
  writeFileSync(join(dir, "specs/nested/ok.stratum.yaml"), 'version: "0.1"\n');
  mkdirSync(join(dir, "many"));
  for (let i = 0; i < MANY; i++) writeFileSync(join(dir, `many/broken-${i}.stratum.yaml`), BROKEN);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Case {
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
  readonly input?: string;
}

const CASES: readonly Case[] = [
  { args: ["--version"] },
  { args: ["--help"] },
  { args: ["check", TYPICAL] },
  { args: ["check", "specs"] },
  { args: ["check", "specs/broken.stratum.yaml", "--format", "json"] },
  { args: ["check", "specs/broken.stratum.yaml", "--format", "sarif"] },
  { args: ["check", "specs/broken.stratum.yaml", "--format", "github"] },
  { args: ["check", "-"], input: BROKEN },
  { args: ["check", "specs/broken.stratum.yaml"], env: { FORCE_COLOR: "1" } },
  { args: ["check", "specs/broken.stratum.yaml"], env: { FORCE_COLOR: "1", NO_COLOR: "1" } },
  { args: ["check", "missing.stratum.yaml"] },
  { args: ["validate", "specs/broken.stratum.yaml"], env: { STRATUMC_PROG: "stratum-mcp" } },
  { args: ["explain", "SPEC-STEP-DUPLICATE-ID"] },
  { args: ["eval", "len([x for x in [1, 2, 3] if x > 1])"] },
  { args: ["eval", "x + 'a'", "--bindings", '{"x": 1}'] },
  { args: ["no-such-command"] },
  // The snapshot has fuzzed the typical spec while it was built: a later fuzz (another seed,
  // another spec, `check --deep`) must not see anything that warm-up left behind.
  { args: ["fuzz", TYPICAL, "--format", "json", "--runs", "10"] },
  { args: ["fuzz", TYPICAL, "--seed", "7", "--runs", "5"] },
  { args: ["fuzz", "specs"] },
  // Two specs on two worker threads, started by a process that began from the snapshot.
  { args: ["fuzz", TYPICAL, "specs/nested/ok.stratum.yaml", "--jobs", "2", "--runs", "3"] },
  { args: ["check", "--deep", TYPICAL, "specs/nested/ok.stratum.yaml", "--jobs", "2"] },
  { args: ["check", "--deep", TYPICAL] },
];

function run(nodeArgs: readonly string[], c: Case) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...c.env };
  delete env.NODE_OPTIONS;
  if (c.env?.FORCE_COLOR === undefined) delete env.FORCE_COLOR;
  if (c.env?.NO_COLOR === undefined) delete env.NO_COLOR;
  const r = spawnSync(process.execPath, [...nodeArgs, ...c.args], {
    cwd: dir,
    env,
    input: c.input ?? "",
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(process.platform === "win32" || process.env.STRATUMC_NO_SNAPSHOT)(
  "the startup snapshot (skipped where the build makes none: Windows, STRATUMC_NO_SNAPSHOT)",
  () => {
    it("was built, with the record of the node binary that built it", () => {
      expect(existsSync(BLOB)).toBe(true);
      expect(existsSync(`${BLOB}.nodepath`)).toBe(true);
    });

    // Node 20 keeps state of node:worker_threads in a snapshot whose warm-up loaded it, and every
    // worker a process started from that snapshot makes then crashes: the snapshots' bundles require
    // it only when they start a worker (cli/fuzz-workers.ts, ui/reader-start.ts), never as a module
    // loads, which is what a static import becomes.
    it.each(["stratumc-snapshot.cjs", "stratumc-check-snapshot.cjs", "stratumc-explore-snapshot.cjs"])(
      "dist/%s never loads node:worker_threads as a module loads",
      (bundle) => {
        const text = readFileSync(join(REPO, "dist", bundle), "utf8");
        expect(text).not.toMatch(/\brequire\("node:worker_threads"\)|\bimport\("node:worker_threads"\)/);
      },
    );

    it.each(CASES.map((c) => [c.args.join(" "), c] as const))(
      "stratumc %s: same output as the plain bundle",
      (_, c) => {
        const plain = run([BUNDLE], c);
        const fast = run(["--snapshot-blob", BLOB, "--"], c);
        expect(fast).toEqual(plain);
        expect(plain.stderr).not.toContain("internal error");
      },
    );

    it("reports the check results it should (the comparison above is not between two failures)", () => {
      expect(run(["--snapshot-blob", BLOB, "--"], { args: ["check", TYPICAL] }).status).toBe(0);
      const broken = run(["--snapshot-blob", BLOB, "--"], { args: ["check", "specs/broken.stratum.yaml"] });
      expect(broken.status).toBe(1);
      expect(broken.stdout).toContain("specs/broken.stratum.yaml:");
      expect(broken.stdout).toContain("[SPEC-STEP-DUPLICATE-ID]");
    });
  },
);

// The check-only snapshot ends its process as soon as the command is done and its output has been
// written (cli/start.ts), not when the event loop empties: no output may be lost by that.
describe.skipIf(process.platform === "win32" || process.env.STRATUMC_NO_SNAPSHOT)(
  "the check-only startup snapshot",
  () => {
    const CHECK_CASES = CASES.filter((c) => c.args[0] === "check" || c.args[0] === "validate");

    it.each(CHECK_CASES.map((c) => [c.args.join(" "), c] as const))(
      "stratumc %s: same output as the plain bundle",
      (_, c) => {
        expect(run(["--snapshot-blob", CHECK_BLOB, "--"], c)).toEqual(run([BUNDLE], c));
      },
    );

    it.each(["json", "pretty"])("writes a report larger than a pipe holds whole (--format %s)", (format) => {
      const c: Case = { args: ["check", "many", "--format", format] };
      const fast = run(["--snapshot-blob", CHECK_BLOB, "--"], c);
      expect(fast.stdout.length).toBeGreaterThan(128 * 1024);
      expect(fast).toEqual(run([BUNDLE], c));
      expect(fast.status).toBe(1);
      if (format === "json") expect(JSON.parse(fast.stdout)).toHaveLength(MANY);
    });
  },
);

// The explore snapshot (`check --deep` and `fuzz`) ends its process the same way, and hands every
// other command line to the whole CLI.
describe.skipIf(process.platform === "win32" || process.env.STRATUMC_NO_SNAPSHOT)(
  "the explore startup snapshot",
  () => {
    const EXPLORE_CASES = CASES.filter((c) =>
      ["check", "validate", "fuzz", "--version", "eval"].includes(c.args[0] ?? ""),
    );

    it("was built", () => {
      expect(existsSync(EXPLORE_BLOB)).toBe(true);
    });

    it.each(EXPLORE_CASES.map((c) => [c.args.join(" "), c] as const))(
      "stratumc %s: same output as the plain bundle",
      (_, c) => {
        expect(run(["--snapshot-blob", EXPLORE_BLOB, "--"], c)).toEqual(run([BUNDLE], c));
      },
    );

    it("writes a fuzz report larger than a pipe holds whole", () => {
      const c: Case = { args: ["fuzz", "many", "--format", "json"] };
      const fast = run(["--snapshot-blob", EXPLORE_BLOB, "--"], c);
      expect(fast.stdout.length).toBeGreaterThan(128 * 1024);
      expect(fast).toEqual(run([BUNDLE], c));
      expect(fast.status).toBe(1);
    });
  },
);
