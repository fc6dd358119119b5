// The verdicts of one flow from its explored state space: completion, option to complete, the
// loops no run leaves towards completion, dead steps with their cause, unbounded revise rounds.
import { canComplete, type StateSpace } from "./explore";
import { sccs } from "./scc";
import type { ControlFlow, ControlStep, DeadStep, FlowVerdict, Place, RouteKey, Trap } from "./types";

export function verdictOf(
  flow: ControlFlow,
  top: StateSpace,
  child: StateSpace | null,
  childEnds: (flow: string) => boolean,
): FlowVerdict {
  const good = canComplete(top);
  const completes = top.start.some((s) => good.has(s));
  // After a kill that on_kill routed on, the run is bound to end `killed` (a declared outcome):
  // such states do not count against the option to complete.
  const trapped = top.reached.filter((s) => s < top.perKill && !good.has(s));
  return {
    flow: flow.name,
    decided: true,
    completes,
    optionToComplete: trapped.length === 0,
    ends: endsIn(top),
    deadSteps: deadSteps(flow, [top, ...(child === null ? [] : [child])], childEnds),
    traps: trapsOf(top, trapped),
    unboundedRevise: unboundedRevise(flow, [top, ...(child === null ? [] : [child])]),
    states: top.reached.length,
  };
}

/** Some run of the space ends: completes, is killed or exhausts. */
export function endsIn(space: StateSpace): boolean {
  if (space.start.some((s) => s < 0)) return true;
  for (const s of space.reached) if ((space.edges.get(s) ?? []).some((e) => e.to < 0)) return true;
  return false;
}

function trapsOf(space: StateSpace, trapped: readonly number[]): Trap[] {
  const inTrap = new Set(trapped);
  const pos = (s: number): number => Math.floor((s % space.perKill) / space.rounds);
  const succ = (s: number): number[] =>
    (space.edges.get(s) ?? []).map((e) => e.to).filter((t) => inTrap.has(t));
  const steps = space.flow.steps;
  const out: Trap[] = [];
  const keys = new Set<string>();
  const add = (trap: Trap): void => {
    const key = `${trap.steps.join(",")}|${trap.closing?.step ?? ""}|${trap.closing?.route ?? ""}`;
    if (keys.has(key)) return;
    keys.add(key);
    out.push(trap);
  };
  for (const s of trapped) {
    const step = steps[pos(s)]!;
    if ((space.edges.get(s) ?? []).length === 0 && step.child !== null) {
      add({ steps: [step.id], closing: null, stuckChild: step.child });
    }
  }
  for (const component of sccs(trapped, succ)) {
    const members = new Set(component);
    const only = component[0]!;
    if (component.length === 1 && !succ(only).includes(only)) continue;
    // Only a loop no run can leave for another trapped state explains the trap; the loops
    // before it can be left (towards it).
    if (component.some((s) => succ(s).some((t) => !members.has(t)))) continue;
    let closing: { from: number; to: number; route: RouteKey } | null = null;
    for (const s of component) {
      for (const e of space.edges.get(s) ?? []) {
        if (!members.has(e.to)) continue;
        // A gate approved without a human on the way closes the loop with its on_approve.
        const from = e.via ?? pos(s);
        const route: RouteKey = e.via === null ? e.route : "on_approve";
        if (pos(e.to) > from) continue;
        const better =
          closing === null ||
          rank(route) < rank(closing.route) ||
          (rank(route) === rank(closing.route) && from > closing.from);
        if (better) closing = { from, to: pos(e.to), route };
      }
    }
    const inLoop = new Set(component.map(pos));
    for (const s of component) {
      for (const e of space.edges.get(s) ?? []) if (members.has(e.to) && e.via !== null) inLoop.add(e.via);
    }
    const positions = [...inLoop].sort((a, b) => a - b);
    add({
      steps: positions.map((p) => steps[p]!.id),
      closing:
        closing === null
          ? null
          : { step: steps[closing.from]!.id, route: closing.route, target: steps[closing.to]!.id },
    });
  }
  return out;
}

/** Routes written in the spec explain a loop better than a fall-through or a skip. */
function rank(route: RouteKey): number {
  return route === "fall-through" || route === "skip" ? 1 : 0;
}

/**
 * The step graph of SPEC-STEP-UNREACHABLE (every route taken, a non-gate step also falls through);
 * what it reaches but no run dispatches is dead for a reason this model knows.
 */
function graphEdges(flow: ControlFlow, p: number): { to: number; route: RouteKey }[] {
  const step = flow.steps[p]!;
  const n = flow.steps.length;
  const out: { to: number; route: RouteKey }[] = [];
  if (step.kind === "gate") {
    out.push({ to: step.onApprove, route: "on_approve" });
    if (step.onKill !== null) out.push({ to: step.onKill, route: "on_kill" });
    if (step.revisesElsewhere) out.push({ to: step.onRevise, route: "on_revise" });
  } else {
    if (step.next !== null) out.push({ to: step.next, route: "next" });
    if (step.onFail !== null) out.push({ to: step.onFail, route: "on_fail" });
    out.push({ to: p + 1, route: "fall-through" });
  }
  return out.filter((e) => e.to < n);
}

function deadSteps(
  flow: ControlFlow,
  spaces: readonly StateSpace[],
  childEnds: (flow: string) => boolean,
): DeadStep[] {
  const n = flow.steps.length;
  const any = (f: (s: StateSpace) => Uint8Array, p: number): boolean => spaces.some((s) => f(s)[p] === 1);
  const arrived = (p: number): boolean => any((s) => s.arrived, p);
  const dispatched = (p: number): boolean => any((s) => s.dispatched, p);
  const waited = (p: number): boolean => any((s) => s.waited, p);
  // Graph reachability from the first step, and the first cause found for each node no run
  // reaches: breadth first from every position some run arrives at, so a direct cause wins.
  const cause = new Map<number, { via: number; route: RouteKey }>();
  const graphReached = new Uint8Array(n);
  const queue: number[] = [];
  if (n > 0) {
    graphReached[0] = 1;
    queue.push(0);
  }
  for (let i = 0; i < queue.length; i++) {
    const u = queue[i]!;
    for (const e of graphEdges(flow, u)) {
      if (graphReached[e.to] === 1) continue;
      graphReached[e.to] = 1;
      queue.push(e.to);
    }
  }
  const frontier: number[] = [];
  for (let p = 0; p < n; p++) if (arrived(p)) frontier.push(p);
  for (let i = 0; i < frontier.length; i++) {
    const u = frontier[i]!;
    for (const e of graphEdges(flow, u)) {
      if (arrived(e.to) || cause.has(e.to)) continue;
      cause.set(e.to, arrived(u) ? { via: u, route: e.route } : cause.get(u)!);
      frontier.push(e.to);
    }
  }
  const out: DeadStep[] = [];
  for (let p = 0; p < n; p++) {
    if (dispatched(p)) continue;
    const step = flow.steps[p]!;
    if (graphReached[p] !== 1) {
      out.push({ step: step.id, reason: { kind: "unreachable" } });
      continue;
    }
    if (arrived(p)) {
      out.push({ step: step.id, reason: { kind: "always-skipped" } });
      continue;
    }
    const c = cause.get(p);
    if (c === undefined) continue; // cannot happen: graph-reachable nodes are found from position 0
    const via = flow.steps[c.via]!;
    const why = whyNotTaken(flow, via, c.route, dispatched(c.via), waited(c.via), childEnds);
    out.push({
      step: step.id,
      reason: { kind: "route-never-taken", via: via.id, route: c.route, because: why.because, at: why.at },
    });
  }
  return out;
}

function whyNotTaken(
  flow: ControlFlow,
  via: ControlStep,
  route: RouteKey,
  dispatched: boolean,
  waited: boolean,
  childEnds: (flow: string) => boolean,
): { because: string; at: Place } {
  const at = (key: Place["key"]): Place => ({ step: via.id, key });
  if (!dispatched && via.skip === "always") {
    return { because: `step '${via.id}' is always skipped: its skip_if is always true`, at: at("skip_if") };
  }
  if (route === "fall-through" && via.next !== null) {
    const target = flow.steps[via.next]?.id ?? "";
    return {
      because: `step '${via.id}' always leaves by next: '${target}' (only a skip_if that holds would fall through)`,
      at: at("next"),
    };
  }
  if (via.kind === "flow" && via.child !== null && !childEnds(via.child)) {
    return { because: `step '${via.id}' runs flow '${via.child}', which never ends`, at: at("step") };
  }
  if (route === "on_fail" && !via.canFail) {
    return {
      because: `step '${via.id}' never fails: it has no ensure, output_schema, contract or reasoning certificate`,
      at: at("on_fail"),
    };
  }
  if (via.kind === "gate" && via.autoApprove && !waited) {
    return {
      because: `gate '${via.id}' is approved by its policy on every run, never by a human`,
      at: at("policy"),
    };
  }
  return {
    because: `no run takes ${route} of step '${via.id}'`,
    at: at(route === "fall-through" ? "step" : route),
  };
}

function unboundedRevise(flow: ControlFlow, spaces: readonly StateSpace[]): string[] {
  if (flow.maxRounds !== null) return [];
  return flow.steps
    .filter((s, p) => s.kind === "gate" && s.revisesElsewhere && spaces.some((sp) => sp.revised[p] === 1))
    .map((s) => s.id);
}
