// The state space of one flow run: a state is a waiting position (a step for the agent, a gate for
// a human), whether a kill was routed on by on_kill (the run then ends `killed` when it runs off
// the end of the flow; only approving a gate whose on_approve is null, by hand or by policy, still
// ends it `complete`) and, only when the flow has `max_rounds`, the number of revise rounds so far
// (revise is refused once it reaches max_rounds). Three end states: complete, killed,
// retries_exhausted.
//
// A step without checks (no contract, output_schema, certificate or ensure) passes whatever the
// agent reports: it has no failure move.
//
// What is deliberately not tracked, because it cannot change which positions are reachable or
// whether completion stays reachable:
// - attempts: on every attempt the agent may pass or fail; a failure retries while attempts remain
//   and then exhausts, so from a waiting step the outcomes are always "pass" and "exhaust" whatever
//   the count (a retry stays at the step). The one effect of a retry, a re-dispatch that evaluates
//   the step's own skip_if again (without the policy loop), is kept as an extra move of steps with
//   more than one attempt (an over-approximation when earlier attempts were used up).
// - outputs, iteration state, accumulators: data, which the free choices already cover.
import { Dispatcher } from "./dispatch";
import type { ControlFlow, RouteKey } from "./types";

const COMPLETE = -1;
const KILLED = -2;
const EXHAUSTED = -3;

interface Edge {
  readonly to: number;
  readonly route: RouteKey;
  /** The last gate approved without a human (policy or skip_if) on the way, if any. */
  readonly via: number | null;
}

export interface StateSpace {
  readonly flow: ControlFlow;
  /** Revise rounds tracked per position (max_rounds + 1, or 1). */
  readonly rounds: number;
  /** States per value of the killed flag (positions × rounds). */
  readonly perKill: number;
  /** Start states (state ids or end markers). */
  readonly start: readonly number[];
  /** Reachable states, in discovery order. */
  readonly reached: readonly number[];
  readonly edges: ReadonlyMap<number, readonly Edge[]>;
  /** Positions some dispatch evaluated. */
  readonly arrived: Uint8Array;
  /** Positions some dispatch stopped at (a gate counts before its policy approves it). */
  readonly dispatched: Uint8Array;
  /** Positions where a reachable state waits. */
  readonly waited: Uint8Array;
  /** Gates where a reachable state may revise. */
  readonly revised: Uint8Array;
}

export interface ExploreOptions {
  /** A child flow's first dispatch runs without the policy loop (docs/reference/runtime.md §8.1). */
  readonly asChild: boolean;
  /** Whether a run of the named flow can end (sub-flow steps need their child to end). */
  readonly childEnds: (flow: string) => boolean;
  /** Give up past this many states. */
  readonly maxStates: number;
}

export function explore(flow: ControlFlow, options: ExploreOptions): StateSpace | null {
  const { steps } = flow;
  const n = steps.length;
  const rounds = flow.maxRounds === null ? 1 : flow.maxRounds + 1;
  if (2 * n * rounds > options.maxStates) return null;
  const dispatcher = new Dispatcher(flow);
  const perKill = n * rounds;
  const id = (p: number, r: number, killed: number): number => {
    if (p === n) return killed === 1 ? KILLED : COMPLETE;
    if (p === n + 1) return COMPLETE;
    return killed * perKill + p * rounds + r;
  };
  const edges = new Map<number, Edge[]>();
  const waited = new Uint8Array(n);
  const revised = new Uint8Array(n);
  const reached: number[] = [];
  const seen = new Set<number>();
  const visit = (s: number): void => {
    if (s < 0 || seen.has(s)) return;
    seen.add(s);
    reached.push(s);
  };
  const start = dispatcher.advance(0, !options.asChild).map((stop) => id(stop.at, 0, 0));
  for (const s of start) visit(s);
  for (let i = 0; i < reached.length; i++) {
    const s = reached[i]!;
    const killed = s >= perKill ? 1 : 0;
    const p = Math.floor((s % perKill) / rounds);
    const r = s % rounds;
    const step = steps[p]!;
    waited[p] = 1;
    const out: Edge[] = [];
    const go = (from: number, route: RouteKey, policy = true, round = r, kill = killed): void => {
      for (const stop of dispatcher.advance(from, policy)) {
        // A retry that does not skip stays at the step: not a move of the control model.
        if (route === "skip" && stop.at === p) continue;
        out.push({ to: id(stop.at, round, kill), route, via: stop.via });
      }
    };
    if (step.kind === "gate") {
      if (step.onApprove === n) out.push({ to: COMPLETE, route: "on_approve", via: null });
      else go(step.onApprove, "on_approve");
      if (flow.maxRounds === null || r < flow.maxRounds) {
        revised[p] = 1;
        go(step.onRevise, "on_revise", true, flow.maxRounds === null ? 0 : r + 1);
      }
      if (step.onKill === null) out.push({ to: KILLED, route: "on_kill", via: null });
      else go(step.onKill, "on_kill", true, r, 1);
    } else if (step.kind === "work" || options.childEnds(step.child ?? "")) {
      if (step.next !== null) go(step.next, "next");
      else go(p + 1, "fall-through");
      if (step.canFail) {
        if (step.onFail !== null) go(step.onFail, "on_fail");
        else out.push({ to: EXHAUSTED, route: "on_fail", via: null });
        if (step.retries && step.skip === "choice") go(p, "skip", false);
      }
    }
    edges.set(s, out);
    for (const e of out) visit(e.to);
  }
  return {
    flow,
    rounds,
    perKill,
    start,
    reached,
    edges,
    arrived: dispatcher.arrived,
    dispatched: dispatcher.dispatched,
    waited,
    revised,
  };
}

/** The states of `space` from which completion is reachable. */
export function canComplete(space: StateSpace): Set<number> {
  const preds = new Map<number, number[]>();
  for (const [from, out] of space.edges) {
    for (const e of out) {
      const list = preds.get(e.to);
      if (list === undefined) preds.set(e.to, [from]);
      else list.push(from);
    }
  }
  const good = new Set<number>([COMPLETE]);
  const stack = [COMPLETE];
  while (stack.length > 0) {
    const s = stack.pop()!;
    for (const p of preds.get(s) ?? []) {
      if (good.has(p)) continue;
      good.add(p);
      stack.push(p);
    }
  }
  return good;
}
