// Loops in a run, from the history of a flow's dispatches (each with the route that led to it):
// where the run came back to a state it was in (exhaustive mode ends a path there), and a step
// dispatched more often than the spec's counters allow (FUZZ-UNBOUNDED-LOOP at the route that
// closes the loop).
import type { FlowIR, StepIR } from "../../checker/index";
import { FUZZ_UNBOUNDED_LOOP } from "../../checker/index";
import type { Observation } from "./observation";

export interface Cause {
  readonly step: string;
  readonly field: string;
}

/** A run came back to step `step` of flow `flow` through the route `cause`, going round `loop`. */
export interface Revisit {
  readonly flow: string;
  readonly step: string;
  readonly cause: Cause;
  readonly loop: readonly string[];
  /** The call whose response dispatched the step again. */
  readonly call: number;
}

export interface Visit {
  readonly step: string;
  readonly cause: Cause | null;
}

/**
 * A step the flow comes back to through `next`, or a revise in a flow without max_rounds: both
 * clear the target's and every later step's outputs, attempts and iteration state
 * (docs/reference/runtime.md §5), so the flow is in the state of the step's first visit again (only the
 * records and, for a revise, the round number — which nothing bounds — differ). Null otherwise.
 */
export function revisitOf(
  flow: FlowIR,
  stepId: string,
  cause: Cause | null,
  history: readonly Visit[],
  visits: number,
  index: number,
): Revisit | null {
  if (cause === null || visits < 2) return null;
  const back = cause.field === "next" || (cause.field === "on_revise" && flow.maxRounds === null);
  if (!back) return null;
  let first = history.length - 2;
  while (first > 0 && history[first]!.step !== stepId) first--;
  const between = history.slice(first, history.length - 1);
  // Exact only if nothing before the step ran since its last visit (those outputs and attempts
  // are not cleared) and no kill routed on (the flow's terminal status is not cleared either).
  const position = (id: string) => flow.steps.findIndex((s) => s.id === id);
  const at = position(stepId);
  if (between.some((v) => position(v.step) < at || v.cause?.field === "on_kill")) return null;
  const loop = [...new Set(between.map((v) => v.step))];
  return { flow: flow.name, step: stepId, cause, loop, call: index };
}

/**
 * FUZZ-UNBOUNDED-LOOP at the backward route taken most recently on the way back to `stepId`; null
 * when that route is a revise (each round is a person's decision: the checker says a flow without
 * max_rounds leaves it unbounded, a static fact, not a run-time finding).
 */
export function unboundedLoop(
  flow: FlowIR,
  history: readonly Visit[],
  stepId: string,
  visits: number,
  index: number,
): Observation | null {
  const allowed = allowance(flow, flow.stepById.get(stepId));
  const position = new Map(flow.steps.map((s, i) => [s.id, i]));
  for (let i = history.length - 1; i > 0; i--) {
    const h = history[i]!;
    const prev = history[i - 1]!;
    if (h.cause === null || h.step === prev.step) continue;
    if ((position.get(h.step) ?? 0) > (position.get(prev.step) ?? 0)) continue;
    if (h.cause.field === "on_revise") return null;
    let j = i - 1;
    while (j > 0 && history[j]!.step !== h.step) j--;
    const cycle = [...new Set(history.slice(j, i).map((v) => v.step))];
    const target = routeOf(flow.stepById.get(h.cause.step), h.cause.field) ?? h.step;
    return {
      code: FUZZ_UNBOUNDED_LOOP.code,
      flow: flow.name,
      step: h.cause.step,
      anchor: { kind: "field", key: h.cause.field },
      message: FUZZ_UNBOUNDED_LOOP.message(
        `'${h.cause.field}: ${target}' of step '${h.cause.step}'`,
        stepId,
        visits,
        allowed,
      ),
      related: cycle.slice(0, 10).map((s) => ({
        flow: flow.name,
        step: s,
        anchor: { kind: "step" },
        message: `'${s}' is on the loop`,
      })),
      call: index,
    };
  }
  return {
    code: FUZZ_UNBOUNDED_LOOP.code,
    flow: flow.name,
    step: stepId,
    anchor: { kind: "step" },
    message: FUZZ_UNBOUNDED_LOOP.message(`the routing into step '${stepId}'`, stepId, visits, allowed),
    related: [],
    call: index,
  };
}

/** Dispatches a step may get from the counters the spec declares: attempts × rounds. */
export function boundOf(flow: FlowIR, step: StepIR): number {
  return ((flow.maxRounds ?? 0) + 1) * attempts(step);
}

function attempts(step: StepIR): number {
  return Math.max(1, step.retries);
}

/**
 * What the spec allows `step`, in the words of the spec's own fields (`retries`, `max_rounds`),
 * so the finding says which counters its "far more often" was measured against.
 */
function allowance(flow: FlowIR, step: StepIR | undefined): string {
  if (step === undefined) return `flow '${flow.name}' has no counter for it`;
  const n = attempts(step);
  const each =
    step.kind === "gate"
      ? "a gate is dispatched once"
      : `its retries: ${step.retries} allow it ${n} attempt${n === 1 ? "" : "s"}`;
  if (flow.maxRounds === null) return `${each}, and flow '${flow.name}' has no max_rounds`;
  const rounds = flow.maxRounds + 1;
  return `${each} in each of the ${rounds} round${rounds === 1 ? "" : "s"} max_rounds: ${flow.maxRounds} allows (${boundOf(flow, step)})`;
}

export function routeOf(step: StepIR | undefined, field: string): string | null {
  if (step === undefined) return null;
  switch (field) {
    case "next":
      return step.next;
    case "on_fail":
      return step.onFail;
    case "on_approve":
      return step.onApprove;
    case "on_revise":
      return step.onRevise;
    case "on_kill":
      return step.onKill;
    default:
      return null;
  }
}
