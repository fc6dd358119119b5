// Shrinking a random finding's witness is bounded by a count of runs, not by time: the witness, and
// so the report, is the same on a slow machine and a fast one, and a quiet machine does not spend
// seconds of runs on one finding.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exploreRandom, shrinkSighting } from "../../fuzzer/explore/random";
import type { Transport } from "../../fuzzer/index";
import type { RunOutcome, RunSetup } from "../../fuzzer/run/driver";
import { attributable, identityOf } from "../../fuzzer/run/observation";
import { CORPUS_DIR } from "./support/corpus";
import { setupOf } from "./support/scripted-run";

// An optional list the accumulate expression iterates: only random runs (absent or null) show it.
const SPEC = readFileSync(join(CORPUS_DIR, "accumulate-fails-2.stratum.yaml"), "utf8");
const CODE = "FUZZ-ACCUMULATE-FAILS";

/** The setup with a transport that counts the runs started on it. */
function counting(setup: RunSetup): { setup: RunSetup; runs: () => number } {
  let runs = 0;
  const base = setup.transport;
  const transport: Transport = Object.assign(
    (tool: Parameters<Transport>[0], args: Parameters<Transport>[1]) => base(tool, args),
    {
      newRun: () => {
        runs++;
        base.newRun?.();
      },
    },
  );
  return { setup: { ...setup, transport }, runs: () => runs };
}

describe("shrinking a random finding", () => {
  it("drives at most the runs it is allowed, and the witness still shows the finding", async () => {
    const setup = setupOf(SPEC, "main", 200);
    const random = await exploreRandom(setup, { seed: 42, runs: 100, deadline: null, now: () => 0 });
    const [id, sighting] = [...random.sightings].find(([, s]) => s.observation.code === CODE) ?? [];
    expect(id).toBeDefined();
    const shows = (o: RunOutcome | null) =>
      o?.observations.some((x) => attributable(x) && identityOf(x) === id) ?? false;

    const free = counting(setup);
    const unbounded = await shrinkSighting(free.setup, 42, sighting!.run, id!, 1_000, null);
    expect(shows(unbounded)).toBe(true);
    // The natural shrink of this finding takes several runs: a smaller cap has something to cut.
    expect(free.runs()).toBeGreaterThan(2);

    const capped = counting(setup);
    const twice = await shrinkSighting(capped.setup, 42, sighting!.run, id!, 2, null);
    expect(capped.runs()).toBe(2);
    expect(shows(twice)).toBe(true);
    expect(twice!.calls.length).toBeGreaterThanOrEqual(unbounded!.calls.length);

    // The same cap gives the same witness, call for call.
    const again = await shrinkSighting(setupOf(SPEC, "main", 200), 42, sighting!.run, id!, 2, null);
    expect(again!.calls).toEqual(twice!.calls);
  }, 120_000);
});
