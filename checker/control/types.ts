// The control model of a flow and the verdicts decided on it (docs/reference/language.md, "Control
// soundness"). Positions are indices in execution order; `n` (the number of steps) is the end of
// the flow.
/** How a step's `skip_if` behaves at dispatch: absent or constantly false, constantly true, or either. */
export type SkipMode = "never" | "always" | "choice";

/** A route out of a step, named by the key that declares it ("fall-through": the next position). */
export type RouteKey = "next" | "fall-through" | "on_fail" | "on_approve" | "on_revise" | "on_kill" | "skip";

export interface ControlStep {
  readonly id: string;
  readonly kind: "gate" | "flow" | "work";
  /** Targets as positions; `n` is the end of the flow. */
  readonly next: number | null;
  readonly onFail: number | null;
  /** Gates: `on_approve` (`n` when null: approving finishes the flow). */
  readonly onApprove: number;
  /** Gates: where a revise restarts (the gate itself without `on_revise`). */
  readonly onRevise: number;
  /** Gates: whether `on_revise` is written. */
  readonly revisesElsewhere: boolean;
  /** Gates: `on_kill` (null: killing ends the flow as `killed`). */
  readonly onKill: number | null;
  readonly skip: SkipMode;
  /** Gates whose policy is `flag` or `skip`: the policy loop approves them. */
  readonly autoApprove: boolean;
  /** Non-gates: some result fails the step's checks (without checks every result passes). */
  readonly canFail: boolean;
  /** More than one attempt: a failure re-dispatches the step (where `skip_if` is evaluated again). */
  readonly retries: boolean;
  /** Sub-flow steps: the child flow's name. */
  readonly child: string | null;
}

export interface ControlFlow {
  readonly name: string;
  readonly steps: readonly ControlStep[];
  readonly maxRounds: number | null;
}

/** Why a step is never dispatched. */
type DeadReason =
  /** No route of the step graph reaches it (SPEC-STEP-UNREACHABLE reports it). */
  | { readonly kind: "unreachable" }
  /** Its `skip_if` is constantly true: every dispatch skips it. */
  | { readonly kind: "always-skipped" }
  /**
   * Routes reach it only through `via`'s `route`, which no run takes (e.g. the fall-through of a
   * step that always leaves by `next`), or through steps that are dead themselves.
   */
  | {
      readonly kind: "route-never-taken";
      readonly via: string;
      readonly route: RouteKey;
      /** Why no run takes that route, in words. */
      readonly because: string;
      /** Where the cause is written. */
      readonly at: Place;
    };

/** A key of a step (or the step itself) a diagnostic points at. */
export interface Place {
  readonly step: string;
  readonly key: PlaceKey;
}

export type PlaceKey = RouteKey | "skip_if" | "policy" | "step";

export interface DeadStep {
  readonly step: string;
  readonly reason: DeadReason;
}

/** A loop no run can leave towards completion, or a step that can never be answered. */
export interface Trap {
  /** The steps of the loop (or the one stuck step), in execution order. */
  readonly steps: readonly string[];
  /** The route that closes the loop (from a step to itself or an earlier step); null for a stuck step. */
  readonly closing: { readonly step: string; readonly route: RouteKey; readonly target: string } | null;
  /** For a stuck sub-flow step: the child flow that never ends. */
  readonly stuckChild?: string;
}

export interface FlowVerdict {
  readonly flow: string;
  /** False when the state space was too large to explore: nothing below is claimed. */
  readonly decided: boolean;
  /** Some run reaches the end of the flow. */
  readonly completes: boolean;
  /** Every reachable state that is not an end (`complete`, `killed`, `retries_exhausted`) can still reach completion. */
  readonly optionToComplete: boolean;
  /** Some run ends (completes, is killed or exhausts): what a parent's sub-flow step needs. */
  readonly ends: boolean;
  readonly deadSteps: readonly DeadStep[];
  readonly traps: readonly Trap[];
  /** Gates that can wait for a human and revise without a `max_rounds` bound on the flow. */
  readonly unboundedRevise: readonly string[];
  /** States explored (positions × revise rounds). */
  readonly states: number;
}

export interface ControlSoundness {
  readonly flows: ReadonlyMap<string, FlowVerdict>;
}
