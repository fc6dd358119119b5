// Exhaustive exploration of a small spec: every run is reduced to its control decisions (the input
// combination, pass or fail per attempt, each gate outcome, iterating or not and each report's
// kind), and the decision sequences are enumerated depth first: a path that differs from an
// explored one at a decision continues from the engine's state there (fork.ts), or else is replayed
// from the plan with its prefix of decisions. When the enumeration finishes within its path limit and no run hit the call limit, every
// abstract path was explored: a property that held on all of them is proven over these choices.
import { driveRun, type RunOutcome, type RunSetup } from "../run/driver";
import {
  attributable,
  type Coverage,
  emptyCoverage,
  identityOf,
  mergeCoverage,
  type RunEnd,
} from "../run/observation";
import { type Branch, Diverged, ForkingDecider, ForkingTransport } from "./fork";
import type { Sighting } from "./random";

export interface ExhaustiveResult {
  /** Every abstract path was explored. */
  readonly complete: boolean;
  readonly paths: number;
  readonly coverage: Coverage;
  readonly sightings: Map<string, Sighting>;
  readonly ends: Map<RunEnd, RunOutcome>;
  /** Paths continued from an explored path's engine state, and those that had to be replayed after all. */
  readonly forked: { readonly continued: number; readonly diverged: number };
}

interface Pending {
  readonly prefix: number[];
  readonly from: Branch | null;
}

/** One path: continued from `from` when given (and the transport can), else replayed from the plan. */
async function runPath(
  setup: RunSetup,
  inputMenu: readonly Record<string, unknown>[],
  path: Pending,
  sharing: boolean,
): Promise<{ outcome: RunOutcome; decider: ForkingDecider }> {
  const fork = sharing ? new ForkingTransport(setup.transport, path.from) : null;
  const decider = new ForkingDecider(path.prefix, inputMenu, fork);
  const outcome = await driveRun(fork === null ? setup : { ...setup, transport: fork.transport }, decider);
  return { outcome, decider };
}

export async function exploreExhaustive(
  setup: RunSetup,
  inputMenu: readonly Record<string, unknown>[],
  settings: {
    readonly maxPaths: number;
    readonly deadline: number | null;
    readonly now: () => number;
    /** Whether paths continue from the engine's state at their decision (the default) or are all replayed. */
    readonly sharePrefixes?: boolean;
  },
): Promise<ExhaustiveResult> {
  const sharing = settings.sharePrefixes !== false && setup.transport.fork !== undefined;
  const coverage = emptyCoverage();
  const sightings = new Map<string, Sighting>();
  const ends = new Map<RunEnd, RunOutcome>();
  const stack: Pending[] = [{ prefix: [], from: null }];
  let continued = 0;
  let diverged = 0;
  let paths = 0;
  let complete = inputMenu.length > 0;
  while (stack.length > 0) {
    if (paths >= settings.maxPaths || (settings.deadline !== null && settings.now() >= settings.deadline)) {
      complete = false;
      break;
    }
    const path = stack.pop()!;
    const prefix = path.prefix;
    let run: { outcome: RunOutcome; decider: ForkingDecider };
    try {
      run = await runPath(setup, inputMenu, path, sharing);
      if (path.from !== null && sharing) continued++;
    } catch (e) {
      if (!(e instanceof Diverged)) throw e;
      diverged++;
      run = await runPath(setup, inputMenu, { prefix, from: null }, sharing);
    }
    const { outcome, decider } = run;
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
        stack.push({ prefix: [...decider.choices.slice(0, j), alt], from: decider.branches[j] ?? null });
      }
    }
  }
  return {
    complete: complete && stack.length === 0,
    paths,
    coverage,
    sightings,
    ends,
    forked: { continued, diverged },
  };
}

/**
 * Whether `a` is the better witness of its end: the shorter run, except that a run that came back
 * through a revise (a person's choice) yields to one that came back through `next`.
 */
function shorterWitness(a: RunOutcome, b: RunOutcome): boolean {
  const rank = (o: RunOutcome) => (o.revisit?.cause.field === "on_revise" ? 1 : 0);
  return rank(a) !== rank(b) ? rank(a) < rank(b) : a.calls.length < b.calls.length;
}
