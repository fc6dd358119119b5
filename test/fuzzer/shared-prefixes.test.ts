// Exhaustive paths that continue from the engine's state at their decision (explore/fork.ts) are
// the paths replayed from the plan: the same paths in the same order, the same coverage, ends,
// sightings and witnesses, on generated specs and on real ones, and no path had to be replayed
// after all. A fork that put back too little or too much of the engine (a flow, a change token, the
// result cache) answers some later call differently, and a result differs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/index";
import { virtualFiles } from "../../fuzzer/engine";
import { type ExhaustiveResult, exploreExhaustive } from "../../fuzzer/explore/exhaustive";
import type { RunSetup } from "../../fuzzer/run/driver";
import { Solver } from "../../fuzzer/solver";
import { fuzzTarget } from "../../fuzzer/target";
import { engineTransport } from "../../fuzzer/transport";
import { Shapes } from "../../fuzzer/values/shapes";
import { validSpec } from "../interpreter/properties/spec-arbitrary";

const REPO = join(__dirname, "../..");

/** Everything a result says, maps and sets as sorted-by-insertion lists. */
function described(r: ExhaustiveResult): string {
  return JSON.stringify(
    {
      complete: r.complete,
      paths: r.paths,
      coverage: r.coverage,
      sightings: [...r.sightings],
      ends: [...r.ends],
    },
    (_k, v: unknown) => (v instanceof Map ? [...v] : v instanceof Set ? [...v] : v),
  );
}

async function explore(
  text: string,
  flow: string,
  inputs: readonly Record<string, unknown>[],
  maxPaths: number,
  sharePrefixes: boolean,
): Promise<ExhaustiveResult> {
  const target = fuzzTarget(checkSpec(text));
  if (target === null) throw new Error("the spec does not check clean");
  const files = virtualFiles(target.literals.strings);
  const shapes = new Shapes(target.spec, target.literals);
  const setup: RunSetup = {
    target,
    shapes,
    solver: new Solver(target.spec, shapes, 0, files),
    transport: engineTransport(files),
    flow,
    maxCalls: 60,
  };
  return exploreExhaustive(setup, inputs, { maxPaths, deadline: null, now: () => 0, sharePrefixes });
}

describe("exhaustive paths sharing their prefixes", () => {
  it("explore what replaying every path from the plan explores, on generated specs", async () => {
    let continued = 0;
    await fc.assert(
      fc.asyncProperty(validSpec({ forwardOnly: false }), async (spec) => {
        // The generated flows' only input is a boolean: two inputs, so the first decision forks too.
        const inputs = [{ flag: true }, { flag: false }];
        const replayed = await explore(spec.text, "main", inputs, 60, false);
        const shared = await explore(spec.text, "main", inputs, 60, true);
        expect(described(shared)).toBe(described(replayed));
        expect(replayed.forked).toEqual({ continued: 0, diverged: 0 });
        expect(shared.forked.diverged).toBe(0);
        continued += shared.forked.continued;
      }),
      { numRuns: 30, seed: 49 },
    );
    expect(continued).toBeGreaterThan(30);
  }, 600_000);

  it.each([
    ["bench/fixtures/typical.stratum.yaml"],
    ["examples/code-review-gate.stratum.yaml"],
    ["examples/sub-flows.stratum.yaml"],
    ["examples/accumulator-hunt.stratum.yaml"],
    ["test/fuzzer/corpus/ensure-raises-4.stratum.yaml"],
  ])(
    "explore what replaying explores on %s, continuing most paths",
    async (path) => {
      const text = readFileSync(join(REPO, path), "utf8");
      const target = fuzzTarget(checkSpec(text));
      if (target === null) throw new Error("the spec does not check clean");
      for (const flow of target.spec.flows.values()) {
        const inputs = [Object.fromEntries(flow.inputNames.map((n) => [n, "v1"]))];
        const replayed = await explore(text, flow.name, inputs, 50, false);
        const shared = await explore(text, flow.name, inputs, 50, true);
        expect(described(shared)).toBe(described(replayed));
        expect(shared.forked.diverged).toBe(0);
        // Every path but the first continues another one.
        expect(shared.forked.continued).toBe(shared.paths - 1);
      }
    },
    300_000,
  );
});
