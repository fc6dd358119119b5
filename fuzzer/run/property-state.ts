// The property state of one run (docs/guides/testing-a-spec.md "Properties"), built from what the
// interpreter reports and nothing else: its typed events for the root flow (dispatches, finished
// attempts, gate decisions, skips, routes, the flow's end). A step's output is the one its
// `step_finished` event says the flow stored — the accepted result however it was accepted (a
// parallel or member step's aggregate, a sub-flow's output, a cached result, an accumulating
// loop's merged fields), or the result an exhausted step's on_fail routes on with. A route clears
// the steps from its target on, as the interpreter clears their outputs and attempts. `snapshot()`
// is the value the property expressions read their `$` paths from. Only events that do not carry
// the output (a server that sends none with its events) leave a step's output unseen: it reads
// None there and `outputUnseen` says so, so that no verdict rests on it.
import type { FlowIR } from "../../checker/index";
import type { FlowEvent } from "../../interpreter/index";
import { fromJsonValue, makeDict, type PyValue } from "../../stdlib/index";
import type { LoopState } from "./cut-loop";

type StepStatus = "pending" | "running" | "done" | "failed" | "skipped";
type FlowStatus = "running" | "complete" | "failed" | "killed";

/** One step's view; a change replaces it, so a view once made never changes (StateAt keeps them). */
interface StepView {
  readonly status: StepStatus;
  readonly attempts: number;
  /** The output the flow stored (shared with the event: never modified here). */
  readonly output: PyValue;
  /** The view as the property expressions read it, made on the first read. */
  read?: PyValue;
}

function stepView(status: StepStatus, attempts: number, output: PyValue): StepView {
  return { status, attempts, output };
}

function readStep(s: StepView): PyValue {
  s.read ??= makeDict([
    ["status", s.status],
    ["attempts", s.attempts],
    ["output", s.output],
  ]);
  return s.read;
}

export class RunState {
  private status: FlowStatus = "running";
  private ended = false;
  private round = 0;
  private readonly steps = new Map<string, StepView>();
  private readonly gates = new Map<string, string | null>();
  private input: PyValue = makeDict([]);
  /** Steps whose current output the events did not carry. */
  private readonly unseen = new Set<string>();

  constructor(private readonly flow: FlowIR) {
    this.reset(0);
    for (const s of flow.steps) if (s.kind === "gate") this.gates.set(s.id, null);
  }

  /** Every step from index `from` on back to pending (a route's target and what follows it). */
  private reset(from: number, keep: string | null = null): void {
    this.flow.steps.forEach((s, i) => {
      if (i >= from && s.id !== keep) {
        this.steps.set(s.id, stepView("pending", 0, null));
        this.unseen.delete(s.id);
      }
    });
  }

  setInput(input: unknown): void {
    this.input = fromJsonValue(input ?? {});
  }

  /** Applies one event of the root flow; true when the state changed. */
  apply(e: FlowEvent): boolean {
    switch (e.type) {
      case "flow_started":
        return true;
      case "step_dispatched":
        this.round = e.round;
        return this.set(e.step_id, { status: "running", attempts: e.attempt });
      case "gate_awaited":
        this.round = e.round;
        return this.set(e.step_id, { status: "running" });
      case "step_finished": {
        // A step the cache serves is not dispatched: its record names the round.
        this.round = e.round;
        if (e.outcome === "accepted") {
          // Every accepted attempt stores an output; an event without one comes from a server that
          // does not send it.
          if (e.output === undefined) this.unseen.add(e.step_id);
          else this.unseen.delete(e.step_id);
          return this.set(e.step_id, { status: "done", attempts: e.attempt, output: e.output ?? null });
        }
        if (e.outcome === "exhausted") {
          const failed: Partial<StepView> = { status: "failed", attempts: e.attempt };
          if (e.output === undefined) return this.set(e.step_id, failed);
          this.unseen.delete(e.step_id);
          return this.set(e.step_id, { ...failed, output: e.output });
        }
        if (e.outcome === "skipped") return this.set(e.step_id, { status: "skipped" });
        return this.set(e.step_id, { attempts: e.attempt });
      }
      case "gate_resolved":
        this.gates.set(e.step_id, e.outcome);
        // Killed from the kill on, while an on_kill route runs its target (docs/reference/runtime.md §6.1).
        if (e.outcome === "kill") this.status = "killed";
        return this.set(e.step_id, { status: "done" });
      case "step_skipped":
        // A gate a policy resolves is approved by it (its PolicyRecord's resolved_outcome).
        if (e.kind === "policy" && this.gates.has(e.step_id)) {
          this.gates.set(e.step_id, "approve");
          return this.set(e.step_id, { status: "done" });
        }
        return this.set(e.step_id, { status: "skipped" });
      case "step_abandoned":
        return this.set(e.step_id, { status: "pending" });
      case "step_routed": {
        // A gate's approve or kill route only moves the position: its target keeps its output and
        // attempts (docs/reference/runtime.md §5).
        if (e.route === "on_approve" || e.route === "on_kill") return false;
        const to = this.flow.steps.findIndex((s) => s.id === e.to_step_id);
        if (to < 0) return false;
        // The other routes clear from their target on.
        this.reset(to, e.route === "on_fail" ? e.from_step_id : null);
        return true;
      }
      case "flow_finished": {
        const status: FlowStatus | null =
          e.status === "complete"
            ? "complete"
            : e.status === "killed"
              ? "killed"
              : e.status === "detached"
                ? null
                : "failed";
        if (status === null) return false;
        this.status = status;
        this.ended = true;
        return true;
      }
      default:
        return false;
    }
  }

  /** Whether the step's current output is one the events did not carry (it reads None). */
  outputUnseen(stepId: string): boolean {
    return this.unseen.has(stepId);
  }

  /** The flow finished (its `flow_finished` event): a killed flow still runs an on_kill target first. */
  get finished(): boolean {
    return this.ended;
  }

  /** Replaces the step's view with a new one (not a spread of the old: its `read` must not carry over). */
  private set(id: string, change: Partial<StepView>): boolean {
    const known = this.steps.get(id);
    if (known === undefined) return false;
    this.steps.set(
      id,
      stepView(
        change.status ?? known.status,
        change.attempts ?? known.attempts,
        change.output !== undefined ? change.output : known.output,
      ),
    );
    return true;
  }

  /**
   * The state as it is now, for the loop watch (cut-loop.ts): it keeps one after every call, and
   * reads them only when the run is cut, so this copies the lists and leaves the texts for then.
   */
  at(): LoopState {
    return new StateAt(this.status, this.round, this.input, [...this.steps], [...this.gates]);
  }

  /** The state as the property expressions read it. */
  snapshot(): PyValue {
    const steps = [...this.steps].map(([id, s]) => [id, readStep(s)] as const);
    const gates = [...this.gates].map(([id, outcome]) => [id, makeDict([["outcome", outcome]])] as const);
    return makeDict([
      ["input", this.input],
      [
        "flow",
        makeDict([
          ["status", this.status],
          ["round", this.round],
        ]),
      ],
      ["steps", makeDict(steps)],
      ["gates", makeDict(gates)],
    ]);
  }
}

/** The property state at one moment (RunState.at): its key and its words, made when asked. */
class StateAt implements LoopState {
  constructor(
    private readonly status: FlowStatus,
    private readonly round: number,
    private readonly input: PyValue,
    private readonly steps: readonly (readonly [string, StepView])[],
    private readonly gates: readonly (readonly [string, string | null])[],
  ) {}

  /**
   * The state as text, equal for equal states; `round: false` leaves the round out (for the
   * properties that do not read it, a state that differs only by its round is the same).
   */
  key(round: boolean): string {
    const steps = this.steps.map(([id, s]) => [id, s.status, s.attempts, s.output]);
    return JSON.stringify([this.status, round ? this.round : null, this.input, steps, this.gates]);
  }

  /** The round (the revise count) the flow is in. */
  get currentRound(): number {
    return this.round;
  }

  /** What a person needs to recognise the state: the steps running, the gates decided, the round. */
  describe(): string {
    const running = this.steps
      .filter(([, s]) => s.status === "running")
      .map(([id, s]) => (s.attempts > 0 ? `'${id}' running, attempt ${s.attempts}` : `'${id}' running`));
    const gates = this.gates.filter(([, o]) => o !== null).map(([id, o]) => `gate '${id}' ${o}`);
    const parts = [...running, ...gates];
    if (this.round > 0) parts.push(`round ${this.round}`);
    return parts.length > 0 ? parts.join(", ") : `flow ${this.status}`;
  }
}
