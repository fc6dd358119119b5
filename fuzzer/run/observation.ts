// What a run shows: findings (each with the call whose response showed it) and coverage facts that
// only mean something over many runs (which steps were dispatched, which ensures ever passed).

/** Where a finding points (located later, against the spec's source). */
export type Anchor =
  | { readonly kind: "step" }
  | { readonly kind: "field"; readonly key: string }
  | { readonly kind: "input"; readonly name: string }
  | { readonly kind: "ensure"; readonly index: number }
  | { readonly kind: "ensure-key" }
  | { readonly kind: "flow-output" }
  /** A property of the spec (its name in `properties`); the observation's step is null. */
  | { readonly kind: "property"; readonly name: string };

export interface RelatedPlace {
  readonly flow: string;
  readonly step: string;
  readonly anchor: Anchor;
  readonly message: string;
}

export interface Observation {
  readonly code: string;
  readonly flow: string;
  readonly step: string | null;
  readonly anchor: Anchor;
  readonly message: string;
  readonly related: readonly RelatedPlace[];
  /** Index (in the run's recorded calls) of the call whose response shows the finding. */
  readonly call: number;
  /**
   * A step was skipped by hand (stratum_skip_step) earlier in the run: the finding may be the
   * human's doing, so it only counts when another run shows it without one.
   */
  readonly afterManualSkip?: boolean;
  /**
   * A property broken because the fuzzer cut the run (at its call limit, or where it stopped a
   * loop): a replay of the witness shows it only when it cuts the run the same way.
   */
  readonly cut?: "truncated" | "loop";
}

/** Whether an observation counts as a finding of the spec (see `afterManualSkip`). */
export function attributable(o: Observation): boolean {
  return o.afterManualSkip !== true || o.code === "FUZZ-INTERNAL";
}

function anchorKey(a: Anchor): string {
  switch (a.kind) {
    case "field":
      return `field:${a.key}`;
    case "input":
      return `input:${a.name}`;
    case "ensure":
      return `ensure:${a.index}`;
    case "property":
      return `property:${a.name}`;
    default:
      return a.kind;
  }
}

/** Two observations with the same identity are the same finding (messages may differ by value). */
export function identityOf(o: Pick<Observation, "code" | "flow" | "step" | "anchor">): string {
  return `${o.code}|${o.flow}|${o.step ?? ""}|${anchorKey(o.anchor)}`;
}

/** How a run ended. */
export type RunEnd =
  | "complete"
  | "killed"
  | "exhausted"
  /** The flow's run budget ran out (docs/reference/runtime.md §11.4): a legal end, as a kill is. */
  | "budget_exhausted"
  | "stuck"
  | "internal"
  | "loop"
  | "truncated"
  /** Exhaustive mode: back in a state explored already (observer.ts, noteRevisit). */
  | "revisit";

/** Per flow name and step id (`flow/step`). */
export interface Coverage {
  /** Steps dispatched (or auto-approved by a policy). */
  readonly dispatched: Set<string>;
  /** Steps with an ensure whose result was accepted at least once. */
  readonly ensurePassed: Set<string>;
  /** Conforming results checked against each step's ensures. */
  readonly ensureTried: Map<string, number>;
  /** Steps whose exit criterion held at least once. */
  readonly exitMet: Set<string>;
  /** Iteration reports per step with an exit criterion. */
  readonly exitTried: Map<string, number>;
  /** Steps with an attempt the interpreter accepted. */
  readonly accepted: Set<string>;
  /**
   * Steps for which the agent aimed at a result that passes but the interpreter rejected it: the
   * interpreter's first reason (its own message), kept until some attempt of the step is accepted.
   */
  readonly rejectedAim: Map<string, string>;
  /** Steps their own `skip_if` skipped (not by hand). */
  readonly skipped: Set<string>;
  /** Steps whose last attempt was rejected (routed through on_fail, or retries exhausted). */
  readonly exhausted: Set<string>;
  /** Gate outcomes that happened, by a person or a policy: `flow/gate/outcome`. */
  readonly gateOutcomes: Set<string>;
  /** Flows (by name) with a run that completed. */
  readonly completed: Set<string>;
  /** How runs of each flow (by name) ended, with the step they ended at: `end|step` → runs. */
  readonly endings: Map<string, Map<string, number>>;
  /**
   * Properties (by name) left unjudged on some state because they read the output of a step whose
   * output the events did not carry there (property-state.ts: a server that sends none).
   */
  readonly propertiesUndecided: Set<string>;
}

export function emptyCoverage(): Coverage {
  return {
    dispatched: new Set(),
    ensurePassed: new Set(),
    ensureTried: new Map(),
    exitMet: new Set(),
    exitTried: new Map(),
    accepted: new Set(),
    rejectedAim: new Map(),
    skipped: new Set(),
    exhausted: new Set(),
    gateOutcomes: new Set(),
    completed: new Set(),
    endings: new Map(),
    propertiesUndecided: new Set(),
  };
}

// Once per run: forEach, not for-of, so that no [key, value] pair is built per entry.
export function mergeCoverage(into: Coverage, from: Coverage): void {
  const addTo = (set: Set<string>) => (k: string) => set.add(k);
  const countInto = (map: Map<string, number>) => (n: number, k: string) => map.set(k, (map.get(k) ?? 0) + n);
  from.dispatched.forEach(addTo(into.dispatched));
  from.ensurePassed.forEach(addTo(into.ensurePassed));
  from.exitMet.forEach(addTo(into.exitMet));
  from.ensureTried.forEach(countInto(into.ensureTried));
  from.exitTried.forEach(countInto(into.exitTried));
  from.accepted.forEach(addTo(into.accepted));
  from.rejectedAim.forEach((why, k) => {
    if (!into.rejectedAim.has(k)) into.rejectedAim.set(k, why);
  });
  from.skipped.forEach(addTo(into.skipped));
  from.exhausted.forEach(addTo(into.exhausted));
  from.gateOutcomes.forEach(addTo(into.gateOutcomes));
  from.completed.forEach(addTo(into.completed));
  from.propertiesUndecided.forEach(addTo(into.propertiesUndecided));
  from.endings.forEach((ends, flow) => {
    let mine = into.endings.get(flow);
    if (mine === undefined) {
      mine = new Map();
      into.endings.set(flow, mine);
    }
    ends.forEach(countInto(mine));
  });
}

/** Steps an aimed-at pass never got accepted for: the interpreter's reason, by step key. */
export function neverAccepted(c: Coverage): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, why] of c.rejectedAim) if (!c.accepted.has(k)) out.set(k, why);
  return out;
}

export function stepKey(flow: string, step: string): string {
  return `${flow}/${step}`;
}
