// The reference's own test suite (0.2.69) run against our MCP server through the adapter of
// test/conformance/reference-suite (its README says how): every portable test passes, except the
// ones expected.json lists with a reason; every test's outcome is pinned, so a test that starts to
// pass, or stops being portable, changes this file's verdict until the list says so.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../mcp/support/server";
import { REPO_ROOT as REPO } from "../support/shared";

const SUITE = join(REPO, "test/conformance/reference-suite");
/** Debian's Python: its pytest and pytest-asyncio are what .ci/run installs. */
const PYTHON = "/usr/bin/python3";

interface Outcome {
  readonly outcome: "passed" | "failed" | "skipped" | "not_portable";
  readonly message?: string;
  readonly touched?: readonly string[];
}

const candidates = (JSON.parse(readFileSync(join(SUITE, "candidates.json"), "utf8")) as { tests: string[] })
  .tests;
const expected = (
  JSON.parse(readFileSync(join(SUITE, "expected.json"), "utf8")) as {
    expected: Record<string, { outcome: Outcome["outcome"]; reason: string }>;
  }
).expected;

describe("the reference's test suite against our server", () => {
  it("every portable test passes, except the listed ones, each with its reason", () => {
    const dir = tempDir("reference-suite-results-");
    try {
      const resultsFile = join(dir.path, "results.json");
      execFileSync(PYTHON, [join(SUITE, "run.py"), resultsFile], { stdio: "pipe", timeout: 1_500_000 });
      const results = JSON.parse(readFileSync(resultsFile, "utf8")) as Record<string, Outcome>;

      const problems: string[] = [];
      // A parametrised test has one outcome per parameter set: `test_x[a]`, `test_x[b]`.
      const candidateOf = (id: string) => id.replace(/\[.*\]$/, "");
      for (const [id, got] of Object.entries(results)) {
        if (!candidates.includes(candidateOf(id))) {
          problems.push(`${id}: an outcome for a test that is not a candidate`);
          continue;
        }
        const want = (expected[id] ?? expected[candidateOf(id)])?.outcome ?? "passed";
        if (got.outcome !== want) {
          const detail = got.touched?.join(", ") ?? got.message?.slice(-600) ?? "";
          problems.push(`${id}: ${got.outcome}, expected ${want}\n    ${detail}`);
        }
      }
      const ran = new Set(Object.keys(results).map(candidateOf));
      for (const id of candidates) if (!ran.has(id)) problems.push(`${id}: no outcome (collection failed?)`);
      for (const id of Object.keys(expected)) {
        if (!candidates.includes(candidateOf(id)))
          problems.push(`expected.json names ${id}, which is not a candidate`);
      }
      expect(problems).toEqual([]);
      const passed = Object.values(results).filter((r) => r.outcome === "passed").length;
      expect(passed).toBeGreaterThan(0);
    } finally {
      dir.dispose();
    }
  }, 1_600_000);
});
