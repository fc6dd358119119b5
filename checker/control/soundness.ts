// `controlSoundness`: the three soundness properties of workflow nets decided per flow on the
// control model, exactly, by exploring its finite state space (docs/reference/language.md, "Control
// soundness"). Pure; the fuzzer and the checker's control rules read the same verdicts.
import type { CheckedSpec } from "../ir/types";
import { controlFlowOf } from "./build";
import { explore, type StateSpace } from "./explore";
import type { ControlFlow, ControlSoundness, FlowVerdict } from "./types";
import { endsIn, verdictOf } from "./verdict";

/** Past this many states (positions × revise rounds) a flow is left undecided. */
const MAX_CONTROL_STATES = 1_000_000;

export function controlSoundness(spec: CheckedSpec): ControlSoundness {
  const models = new Map<string, ControlFlow>();
  for (const [name, flow] of spec.flows) models.set(name, controlFlowOf(flow, spec));
  const called = new Set<string>();
  for (const m of models.values()) for (const s of m.steps) if (s.child !== null) called.add(s.child);

  // Whether a run of a flow started by a parent's sub-flow step can end. Flows call each other
  // without cycles in a checked spec; a cycle (or a flow too large to explore) counts as ending,
  // which can only hide a verdict, never invent one.
  const ends = new Map<string, boolean>();
  const childSpaces = new Map<string, StateSpace | null>();
  const childEnds = (name: string): boolean => {
    const known = ends.get(name);
    if (known !== undefined) return known;
    const model = models.get(name);
    if (model === undefined) return true;
    ends.set(name, true);
    const space = explore(model, { asChild: true, childEnds, maxStates: MAX_CONTROL_STATES });
    childSpaces.set(name, space);
    const result = space === null ? true : endsIn(space);
    ends.set(name, result);
    return result;
  };

  const flows = new Map<string, FlowVerdict>();
  for (const [name, model] of models) {
    const top = explore(model, { asChild: false, childEnds, maxStates: MAX_CONTROL_STATES });
    if (called.has(name)) childEnds(name);
    const child = childSpaces.get(name) ?? null;
    flows.set(name, top === null ? undecided(name) : verdictOf(model, top, child, childEnds));
  }
  return { flows };
}

function undecided(flow: string): FlowVerdict {
  return {
    flow,
    decided: false,
    completes: true,
    optionToComplete: true,
    ends: true,
    deadSteps: [],
    traps: [],
    unboundedRevise: [],
    states: 0,
  };
}
