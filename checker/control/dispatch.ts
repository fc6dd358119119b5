// The dispatch of the runtime as a nondeterministic macro step (interpreter/flow/dispatch.ts and
// policy.ts): from a position, skip steps whose skip_if holds (a non-constant skip_if may or may
// not hold), auto-approve gates whose skip_if holds (a gate auto-approved once in one dispatch
// waits the second time), then — where the runtime runs it — the policy loop, which approves
// `flag`/`skip` gates along on_approve until a gate it has seen before in this loop. The result is
// every position where the flow can stop and wait (a step for the agent, a gate for a human), and
// `n` when it can finish.
import type { ControlFlow } from "./types";

/**
 * Where a dispatch can stop — a position, `n` when the flow ran off its end (its status is
 * `killed` after a kill that on_kill routed, else `complete`), `n + 1` when a gate policy
 * finished it (always `complete`) — and the last gate approved without a human on the way.
 */
export interface Stop {
  readonly at: number;
  readonly via: number | null;
}

export class Dispatcher {
  /** Positions some dispatch evaluated (skipped or stopped at). */
  readonly arrived: Uint8Array;
  /** Positions some dispatch stopped at: dispatched to the agent, or a gate (before any policy). */
  readonly dispatched: Uint8Array;
  private readonly cache = new Map<number, readonly Stop[]>();

  constructor(private readonly flow: ControlFlow) {
    this.arrived = new Uint8Array(flow.steps.length);
    this.dispatched = new Uint8Array(flow.steps.length);
  }

  /** Stops of a dispatch from `from`, followed by the policy loop when `policy` holds. */
  advance(from: number, policy: boolean): readonly Stop[] {
    const key = policy ? from : -1 - from;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const out = new Map<number, number | null>();
    const add = (stop: number, via: number | null): void => {
      if (!out.has(stop)) out.set(stop, via);
    };
    const n = this.flow.steps.length;
    // The policy loop's `seen` is per call; states of the loop are (position, seen gates).
    const stack: { q: number; seen: readonly number[]; via: number | null }[] = [
      { q: from, seen: [], via: null },
    ];
    const visited = new Set<string>();
    while (stack.length > 0) {
      const { q, seen, via: before } = stack.pop()!;
      for (const [stop, inCall] of this.dispatch(q)) {
        const via = inCall ?? before;
        const gate = this.flow.steps[stop];
        if (stop === n || !policy || gate === undefined || gate.kind !== "gate" || !gate.autoApprove) {
          add(stop, via);
          continue;
        }
        if (seen.includes(stop)) {
          add(stop, via);
          continue;
        }
        if (gate.onApprove === n) {
          // The policy loop finishes the flow as literally "complete", even after a routed kill.
          add(n + 1, stop);
          continue;
        }
        const next = { q: gate.onApprove, seen: [...seen, stop].sort((a, b) => a - b), via: stop };
        const k = `${next.q}:${next.seen.join(",")}`;
        if (!visited.has(k)) {
          visited.add(k);
          stack.push(next);
        }
      }
    }
    const result = [...out].map(([at, via]) => ({ at, via })).sort((a, b) => a.at - b.at);
    this.cache.set(key, result);
    return result;
  }

  /** One dispatch call (no policy loop): its possible stops, each with the last gate it auto-approved on the way. */
  private dispatch(from: number): Map<number, number | null> {
    const { steps } = this.flow;
    const n = steps.length;
    const out = new Map<number, number | null>();
    // States of one call: (position, gates auto-approved by skip_if in this call).
    const stack: { q: number; auto: readonly number[]; via: number | null }[] = [
      { q: from, auto: [], via: null },
    ];
    const visited = new Set<string>([`${from}:`]);
    const push = (q: number, auto: readonly number[], via: number | null): void => {
      const k = `${q}:${auto.join(",")}`;
      if (visited.has(k)) return;
      visited.add(k);
      stack.push({ q, auto, via });
    };
    while (stack.length > 0) {
      const { q, auto, via } = stack.pop()!;
      const stopAt = (p: number): void => {
        if (!out.has(p)) out.set(p, via);
      };
      if (q >= n) {
        stopAt(n);
        continue;
      }
      this.arrived[q] = 1;
      const step = steps[q]!;
      if (step.kind === "gate" && auto.includes(q)) {
        stopAt(q);
        this.dispatched[q] = 1;
        continue;
      }
      if (step.skip !== "always") {
        stopAt(q);
        this.dispatched[q] = 1;
      }
      if (step.skip === "never") continue;
      if (step.kind === "gate")
        push(
          step.onApprove,
          [...auto, q].sort((a, b) => a - b),
          q,
        );
      else push(q + 1, auto, via);
    }
    return out;
  }
}
