// Properties of the fuzzer over random valid specs (the interpreter properties' generator: gates,
// routes, retries, skip_if, iterations): it never throws and never finds a bug of ours
// (FUZZ-INTERNAL); every finding lies inside the file; the same seed gives the same report; and
// where exhaustive exploration completes, random runs reach nothing it did not reach.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/check-spec";
import { LineMap } from "../../checker/location";
import { fuzzEngine, virtualFiles } from "../../fuzzer/engine";
import { exploreExhaustive } from "../../fuzzer/explore/exhaustive";
import { exploreRandom } from "../../fuzzer/explore/random";
import { fuzzSpec } from "../../fuzzer/index";
import type { RunSetup } from "../../fuzzer/run/driver";
import { apiTransport } from "../../fuzzer/run/session";
import { Solver } from "../../fuzzer/solver";
import { fuzzTarget } from "../../fuzzer/target";
import { Shapes } from "../../fuzzer/values/shapes";
import { validSpec } from "../interpreter/properties/spec-arbitrary";

const SMALL = { runs: 15, maxPaths: 20, maxCalls: 60 } as const;

function inside(
  lines: LineMap,
  r: { line: number; column: number; end_line: number; end_column: number },
): boolean {
  const last = lines.lineCount;
  const lineLength = (n: number) => [...lines.lineText(n)].length;
  return (
    r.line >= 1 &&
    r.end_line <= last &&
    (r.line < r.end_line || (r.line === r.end_line && r.column <= r.end_column)) &&
    r.column >= 1 &&
    r.column <= lineLength(r.line) + 1 &&
    r.end_column <= lineLength(r.end_line) + 1
  );
}

describe("fuzzer properties", () => {
  it("never throws, never fails inside the interpreter, and locates every finding inside the file", async () => {
    await fc.assert(
      fc.asyncProperty(validSpec({ forwardOnly: false }), fc.nat(), async (spec, seed) => {
        const { report } = await fuzzSpec(spec.text, { ...SMALL, seed });
        expect(report).not.toBeNull();
        const lines = new LineMap(spec.text);
        for (const f of report?.findings ?? []) {
          expect(f.code).not.toBe("FUZZ-INTERNAL");
          expect(inside(lines, f), `${f.code} at ${f.line}:${f.column}`).toBe(true);
          for (const r of f.related ?? []) expect(inside(lines, r)).toBe(true);
        }
      }),
      { numRuns: 25, seed: 11 },
    );
  }, 300_000);

  it("gives the same report for the same seed", async () => {
    await fc.assert(
      fc.asyncProperty(validSpec({ forwardOnly: false }), fc.nat(), async (spec, seed) => {
        const a = await fuzzSpec(spec.text, { ...SMALL, seed });
        const b = await fuzzSpec(spec.text, { ...SMALL, seed });
        expect(JSON.stringify(b.report)).toBe(JSON.stringify(a.report));
      }),
      { numRuns: 10, seed: 12 },
    );
  }, 300_000);

  it("agrees with random runs where exhaustive exploration completes", async () => {
    let completed = 0;
    await fc.assert(
      fc.asyncProperty(validSpec({ forwardOnly: true }), fc.nat(), async (spec, seed) => {
        const target = fuzzTarget(checkSpec(spec.text));
        if (target === null) return;
        const files = virtualFiles(target.literals.strings);
        const shapes = new Shapes(target.spec, target.literals);
        const setup: RunSetup = {
          target,
          shapes,
          solver: new Solver(target.spec, shapes, seed, files),
          transport: apiTransport(fuzzEngine(files, { verifyEdits: true })),
          flow: "main",
          maxCalls: 100,
        };
        // The generated flows' only input is a boolean: both values are the whole input domain.
        const exhaustive = await exploreExhaustive(setup, [{ flag: true }, { flag: false }], {
          maxPaths: 300,
          deadline: null,
          now: () => 0,
        });
        if (!exhaustive.complete) return;
        completed++;
        const random = await exploreRandom(setup, { seed, runs: 40, deadline: null, now: () => 0 });
        for (const step of random.coverage.dispatched) expect(exhaustive.coverage.dispatched).toContain(step);
        for (const end of random.ends.keys()) {
          if (end !== "truncated") expect([...exhaustive.ends.keys()]).toContain(end);
        }
      }),
      { numRuns: 25, seed: 13 },
    );
    expect(completed).toBeGreaterThan(5);
  }, 300_000);
});
