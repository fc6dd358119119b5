// Exhaustive exploration of a small spec: every run is reduced to its control decisions (the input
// combination, pass or fail per attempt, each gate outcome, iterating or not and each report's
// kind), and the decision sequences are enumerated depth first by replaying from the plan with a
// prefix. When the enumeration finishes within its path limit and no run hit the call limit, every
// abstract path was explored: a property that held on all of them is proven over these choices.
import { TapeDecider } from "../run/decider";
import { driveRun, type RunOutcome, type RunSetup } from "../run/driver";
import {
  attributable,
  type Coverage,
  emptyCoverage,
  identityOf,
  mergeCoverage,
  type RunEnd,
} from "../run/observation";
import type { Sighting } from "./random";

export interface ExhaustiveResult {
  /** Every abstract path was explored. */
  readonly complete: boolean;
  readonly paths: number;
  readonly coverage: Coverage;
  readonly sightings: Map<string, Sighting>;
  readonly ends: Map<RunEnd, RunOutcome>;
}

export async function exploreExhaustive(
  setup: RunSetup,
  inputMenu: readonly Record<string, unknown>[],
  settings: { readonly maxPaths: number; readonly deadline: number | null; readonly now: () => number },
): Promise<ExhaustiveResult> {
  const coverage = emptyCoverage();
  const sightings = new Map<string, Sighting>();
  const ends = new Map<RunEnd, RunOutcome>();
  const stack: number[][] = [[]];
  let paths = 0;
  let complete = inputMenu.length > 0;
  while (stack.length > 0) {
    if (paths >= settings.maxPaths || (settings.deadline !== null && settings.now() >= settings.deadline)) {
      complete = false;
      break;
    }
    const prefix = stack.pop()!;
    const decider = new TapeDecider(prefix, inputMenu);
    const outcome = await driveRun(setup, decider);
    paths++;
    // A path counts as explored only where every decision on it was accepted by the interpreter.
    if (outcome.end === "truncated" || outcome.unfaithful) complete = false;
    mergeCoverage(coverage, outcome.coverage);
    const seenEnd = ends.get(outcome.end);
    if (seenEnd === undefined || shorterWitness(outcome, seenEnd)) ends.set(outcome.end, outcome);
    for (const o of outcome.observations.filter(attributable)) {
      const id = identityOf(o);
      const known = sightings.get(id);
      if (known === undefined || outcome.calls.length < known.outcome.calls.length) {
        sightings.set(id, { observation: o, run: paths - 1, outcome });
      }
    }
    // Siblings of every decision made past the prefix, deepest last so they are explored first.
    for (let j = prefix.length; j < decider.arities.length; j++) {
      for (let alt = decider.arities[j]! - 1; alt >= 1; alt--) {
        stack.push([...decider.choices.slice(0, j), alt]);
      }
    }
  }
  return { complete: complete && stack.length === 0, paths, coverage, sightings, ends };
}

/**
 * Whether `a` is the better witness of its end: the shorter run, except that a run that came back
 * through a revise (a person's choice) yields to one that came back through `next`.
 */
function shorterWitness(a: RunOutcome, b: RunOutcome): boolean {
  const rank = (o: RunOutcome) => (o.revisit?.cause.field === "on_revise" ? 1 : 0);
  return rank(a) !== rank(b) ? rank(a) < rank(b) : a.calls.length < b.calls.length;
}
