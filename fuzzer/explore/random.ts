// Random exploration: fast-check generates scenarios (inputs, a tape of choices, pools of results)
// from a seed; every run is driven against the interpreter and its findings collected. A finding is
// then shrunk by asking fast-check to replay the run that first showed it (seed + path) and shrink
// it while the finding still shows: the shortest tape and simplest values it finds become the
// counterexample.
import fc from "fast-check";
import { reachableFlows } from "../../checker/index";
import { type Decider, type Scenario, ScenarioDecider, TAPE_MAX } from "../run/decider";
import { driveRun, poolKey, type RunOutcome, type RunSetup } from "../run/driver";
import {
  attributable,
  type Coverage,
  emptyCoverage,
  identityOf,
  mergeCoverage,
  type Observation,
  type RunEnd,
} from "../run/observation";

export interface RandomSettings {
  readonly seed: number;
  readonly runs: number;
  /** Stop starting runs after this many milliseconds (`now` measures it); null: no limit. */
  readonly deadline: number | null;
  readonly now: () => number;
  readonly onRun?: () => void;
  /**
   * fast-check's own time limit (it reads the real clock): generating a scenario is costly when a
   * flow reaches many steps (a pool for each), and the property cannot stop fast-check generating
   * the next one. Default none.
   */
  readonly interruptAfterMs?: number;
}

export interface Sighting {
  readonly observation: Observation;
  /** The run (0-based index of fast-check's generated values) that first showed it. */
  readonly run: number;
  readonly outcome: RunOutcome;
}

export interface RandomResult {
  readonly runs: number;
  readonly coverage: Coverage;
  readonly sightings: Map<string, Sighting>;
  /** The first run (without a manual skip) that ended each way (witnesses of stuck and internal ends). */
  readonly ends: Map<RunEnd, RunOutcome>;
}

/**
 * A scenario holds pools for the steps of the flows a run can reach, no others: fast-check draws
 * every key of a record whether or not the run reads it, so pools for every flow of the spec made
 * each run cost in proportion to the spec, and a fuzz of every flow cost its square.
 */
function scenarioArb(setup: RunSetup): fc.Arbitrary<Scenario> {
  const spec = setup.target.spec;
  const flow = spec.flows.get(setup.flow)!;
  const pools: Record<string, fc.Arbitrary<unknown[]>> = {};
  // In the spec's order (the record's keys, so the values drawn, follow it).
  const reached = new Set(reachableFlows(spec, flow));
  for (const f of spec.flows.values()) {
    if (!reached.has(f)) continue;
    for (const s of f.steps) {
      if (s.kind === "gate" || s.kind === "flow") continue;
      pools[poolKey(f.name, s.id)] = fc.array(setup.shapes.result(s), { minLength: 1, maxLength: 3 });
    }
  }
  return fc.record({
    inputs: setup.shapes.inputs(flow),
    tape: fc.array(fc.nat({ max: TAPE_MAX }), { maxLength: setup.maxCalls * 3 }),
    pools: fc.record(pools),
  });
}

export async function exploreRandom(setup: RunSetup, settings: RandomSettings): Promise<RandomResult> {
  const arb = scenarioArb(setup);
  const coverage = emptyCoverage();
  const sightings = new Map<string, Sighting>();
  const ends = new Map<RunEnd, RunOutcome>();
  let runs = 0;
  const property = fc.asyncProperty(arb, async (scenario) => {
    if (settings.deadline !== null && settings.now() >= settings.deadline) return true;
    const index = runs++;
    const outcome = await driveRun(setup, new ScenarioDecider(scenario));
    mergeCoverage(coverage, outcome.coverage);
    // How a run ended counts for soundness only when no step was skipped by hand.
    if (!outcome.manualSkip && !ends.has(outcome.end)) ends.set(outcome.end, outcome);
    for (const o of outcome.observations.filter(attributable)) {
      const id = identityOf(o);
      if (!sightings.has(id)) sightings.set(id, { observation: o, run: index, outcome });
    }
    settings.onRun?.();
    return true;
  });
  if (settings.deadline !== null && settings.now() >= settings.deadline)
    return { runs, coverage, sightings, ends };
  const limit = settings.interruptAfterMs;
  await fc.check(property, {
    seed: settings.seed,
    numRuns: settings.runs,
    ...(limit === undefined
      ? {}
      : { interruptAfterTimeLimit: Math.max(1, limit), markInterruptAsFailure: false }),
  });
  return { runs, coverage, sightings, ends };
}

/**
 * The simplest run fast-check finds that still shows the finding `identity`, starting from the run
 * at `index`, in at most `maxRuns` runs of shrunk scenarios; null when replaying that run does not
 * show it any more. The cap is a count of runs, not a time, so the witness is the same on every
 * machine; `timeLimitMs` (a caller's time budget, whose report depends on speed anyway) may stop
 * it sooner.
 */
export async function shrinkSighting(
  setup: RunSetup,
  seed: number,
  index: number,
  identity: string,
  maxRuns: number,
  timeLimitMs: number | null,
): Promise<RunOutcome | null> {
  let best: RunOutcome | null = null;
  let driven = 0;
  const property = fc.asyncProperty(scenarioArb(setup), async (scenario) => {
    // Past the cap every candidate passes undriven: fast-check then ends its shrinking at once
    // (with the last failing scenario, which `best` already holds).
    if (driven >= maxRuns) return true;
    driven++;
    const outcome = await driveRun(setup, new ScenarioDecider(scenario) as Decider);
    const shows = outcome.observations.some((o) => attributable(o) && identityOf(o) === identity);
    if (shows && (best === null || outcome.calls.length <= best.calls.length)) best = outcome;
    return !shows;
  });
  await fc.check(property, {
    seed,
    path: String(index),
    numRuns: 1,
    ...(timeLimitMs === null
      ? {}
      : { interruptAfterTimeLimit: Math.max(1, timeLimitMs), markInterruptAsFailure: false }),
  });
  return best;
}
