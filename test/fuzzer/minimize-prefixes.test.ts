// Minimization replays that continue from the witness's engine state at their first changed call
// (explore/replay-prefix.ts) find what replaying every candidate from the plan on a fresh engine
// finds: the same smallest calls and the same observation, for every finding of generated specs
// and of real ones. A state put back wrong (a flow, a change token, the result cache) or an answer
// taken from the wrong call answers some later call differently, and a witness differs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/index";
import { virtualFiles } from "../../fuzzer/engine";
import { exploreExhaustive } from "../../fuzzer/explore/exhaustive";
import { type MinimizeContext, minimizeWitness } from "../../fuzzer/explore/minimize";
import { identityOf } from "../../fuzzer/run/observation";
import { Solver } from "../../fuzzer/solver";
import { fuzzTarget } from "../../fuzzer/target";
import { engineTransport } from "../../fuzzer/transport";
import { Shapes } from "../../fuzzer/values/shapes";
import { validSpec } from "../interpreter/properties/spec-arbitrary";

const REPO = join(__dirname, "../..");

/**
 * Every finding the exhaustive exploration of `flow` sees, minimized both ways: the two results
 * (which must be equal) and the calls the shared replays did not send to the engine.
 */
async function minimizedBothWays(
  text: string,
  flow: string,
  inputs: readonly Record<string, unknown>[],
): Promise<{ replayed: string; shared: string; sharedCalls: number }> {
  const target = fuzzTarget(checkSpec(text));
  if (target === null) throw new Error("the spec does not check clean");
  const files = virtualFiles(target.literals.strings);
  const shapes = new Shapes(target.spec, target.literals);
  const explored = await exploreExhaustive(
    {
      target,
      shapes,
      solver: new Solver(target.spec, shapes, 0, files),
      transport: engineTransport(files),
      flow,
      maxCalls: 60,
    },
    inputs,
    { maxPaths: 40, deadline: null, now: () => 0 },
  );
  const ctx: MinimizeContext = { target, shapes, files };
  const replayed: unknown[] = [];
  const shared: unknown[] = [];
  let sharedCalls = 0;
  for (const [id, s] of explored.sightings) {
    const o = s.observation;
    const calls = s.outcome.calls.slice(0, o.call + 1);
    const wanted = {
      identity: id,
      code: o.code,
      flow: o.flow,
      step: o.step,
      ...(o.cut === undefined ? {} : { cut: o.cut }),
    };
    expect(identityOf(o)).toBe(id);
    const a = await minimizeWitness({ ...ctx, sharePrefixes: false }, calls, wanted);
    const b = await minimizeWitness(ctx, calls, wanted);
    expect(a.sharedCalls).toBe(0);
    replayed.push([a.calls, a.observation]);
    shared.push([b.calls, b.observation]);
    sharedCalls += b.sharedCalls;
  }
  return { replayed: JSON.stringify(replayed), shared: JSON.stringify(shared), sharedCalls };
}

describe("minimization replays sharing the witness's prefix", () => {
  it("minimize every finding as replays from the plan do, on generated specs", async () => {
    let sharedCalls = 0;
    await fc.assert(
      fc.asyncProperty(validSpec({ forwardOnly: false }), async (spec) => {
        const out = await minimizedBothWays(spec.text, "main", [{ flag: true }, { flag: false }]);
        expect(out.shared).toBe(out.replayed);
        sharedCalls += out.sharedCalls;
      }),
      { numRuns: 20, seed: 50 },
    );
    expect(sharedCalls).toBeGreaterThan(0);
  }, 600_000);

  it.each([
    ["test/fuzzer/corpus/ensure-raises-4.stratum.yaml"],
    ["test/fuzzer/corpus/unbounded-loop-3.stratum.yaml"],
    ["test/fuzzer/corpus/ensure-raises-6.stratum.yaml"],
  ])(
    "minimize every finding as replays from the plan do on %s",
    async (path) => {
      const text = readFileSync(join(REPO, path), "utf8");
      const target = fuzzTarget(checkSpec(text));
      if (target === null) throw new Error("the spec does not check clean");
      let sharedCalls = 0;
      for (const flow of target.spec.flows.values()) {
        const inputs = [Object.fromEntries(flow.inputNames.map((n) => [n, "v1"]))];
        const out = await minimizedBothWays(text, flow.name, inputs);
        expect(out.shared).toBe(out.replayed);
        sharedCalls += out.sharedCalls;
      }
      expect(sharedCalls).toBeGreaterThan(0);
    },
    300_000,
  );
});
