// The verdict of each property of the explored flows (docs/guides/testing-a-spec.md "Properties"):
// what a run showed, and what the flow's exploration allows a property that held to claim.
import { FUZZ_PROPERTY_VIOLATED } from "../checker/index";
import type { PropertyVerdict, Verdict } from "./report";
import type { Observation } from "./run/observation";
import { propertiesOf } from "./run/properties";
import { dataReadBy } from "./run/property-reads";
import type { FuzzTarget } from "./target";

/** What a flow's exploration allows its property verdicts to claim. */
export interface Explored {
  readonly held: Verdict;
  readonly runs: number;
  /** Properties some state left unjudged (they read an output the events did not carry). */
  readonly undecided: ReadonlySet<string>;
  /** The inputs exhaustive mode tried with every value of their (finite) domain. */
  readonly enumerated: ReadonlySet<string>;
}

/**
 * Each property of an explored flow: violated when a run (not one that needed a step skipped by
 * hand) broke it; suspect when some state could not judge it; else what the flow's exploration
 * allows (soundness's meanings), and never `proven` when it reads data the exhaustive paths did
 * not vary (a step's output, an input drawn once): those paths prove nothing about other values.
 */
export function propertyVerdicts(
  target: FuzzTarget,
  explored: ReadonlyMap<string, Explored>,
  observations: readonly { obs: Observation; manualSkip: boolean }[],
): Record<string, PropertyVerdict> {
  const out: Record<string, PropertyVerdict> = Object.create(null);
  for (const [flow, e] of explored) {
    for (const p of propertiesOf(target.spec, flow)) {
      const violated = observations.some(
        ({ obs, manualSkip }) =>
          !manualSkip &&
          obs.code === FUZZ_PROPERTY_VIOLATED.code &&
          obs.anchor.kind === "property" &&
          obs.anchor.name === p.name,
      );
      const held = violated ? "violated" : e.undecided.has(p.name) ? "suspect" : e.held;
      const data = held === "proven" ? dataReadBy(p, e.enumerated) : [];
      out[p.name] = {
        flow,
        kind: p.kind,
        verdict: data.length > 0 ? "not_refuted" : held,
        line: target.source.lineOf(p.range.start),
        runs: e.runs,
        ...(data.length > 0
          ? {
              note: `every control path was explored, but it reads data the paths do not enumerate (${data.join(", ")}): the runs tried some values, not all`,
            }
          : {}),
      };
    }
  }
  return out;
}
