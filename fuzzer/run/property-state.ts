// The property state of one run (docs/guides/testing-a-spec.md "Properties"), built from what the
// interpreter reports and nothing else: its typed events for the root flow (dispatches, finished
// attempts, gate decisions, skips, routes, the flow's end) and, for a step's output, the result of
// the stratum_step_done call its `step_finished` event accepted. A route clears the steps from its
// target on, as the interpreter clears their outputs and attempts. `snapshot()` is the value the
// property expressions read their `$` paths from. A step accepted any other way (a parallel or
// member step's aggregate, a sub-flow's output, a cached result) or whose output is more than the
// reported result (an accumulating loop's merged fields) has an output the fuzzer did not see: it
// reads None in the snapshot and `outputUnseen` says so, so that no verdict rests on it.
import type { FlowIR } from "../../checker/index";
import type { FlowEvent } from "../../interpreter/index";
import { fromJsonValue, type PyValue } from "../../stdlib/index";
import type { Exchange } from "./session";

type StepStatus = "pending" | "running" | "done" | "failed" | "skipped";
type FlowStatus = "running" | "complete" | "failed" | "killed";

interface StepView {
  status: StepStatus;
  attempts: number;
  /** JSON, as the agent reported it. */
  output: unknown;
}

type Plain = Record<string, unknown>;

/** An object with user text as keys: no prototype. */
function record(entries: Iterable<readonly [string, unknown]>): Plain {
  const out: Plain = Object.create(null);
  for (const [k, v] of entries) out[k] = v;
  return out;
}

export class RunState {
  private status: FlowStatus = "running";
  private ended = false;
  private round = 0;
  private readonly steps = new Map<string, StepView>();
  private readonly gates = new Map<string, string | null>();
  private input: unknown = {};
  /** Steps whose current output the fuzzer did not see. */
  private readonly unseen = new Set<string>();

  constructor(private readonly flow: FlowIR) {
    this.reset(0);
    for (const s of flow.steps) if (s.kind === "gate") this.gates.set(s.id, null);
  }

  /** Every step from index `from` on back to pending (a route's target and what follows it). */
  private reset(from: number, keep: string | null = null): void {
    this.flow.steps.forEach((s, i) => {
      if (i >= from && s.id !== keep) {
        this.steps.set(s.id, { status: "pending", attempts: 0, output: null });
        this.unseen.delete(s.id);
      }
    });
  }

  setInput(input: unknown): void {
    this.input = input ?? {};
  }

  /**
   * Applies one event of the root flow; true when the state changed. `ex` is the exchange it came
   * with (the accepted result of a stratum_step_done is the step's output).
   */
  apply(e: FlowEvent, ex: Exchange): boolean {
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
        if (e.outcome === "accepted") {
          const ownResult = ex.call.tool === "stratum_step_done" && ex.call.arguments.step_id === e.step_id;
          const seen = ownResult && (this.flow.stepById.get(e.step_id)?.accumulate ?? null) === null;
          if (seen) this.unseen.delete(e.step_id);
          else this.unseen.add(e.step_id);
          const output = seen ? (ex.call.arguments.result ?? null) : null;
          return this.set(e.step_id, { status: "done", attempts: e.attempt, output });
        }
        if (e.outcome === "exhausted") return this.set(e.step_id, { status: "failed", attempts: e.attempt });
        if (e.outcome === "skipped") return this.set(e.step_id, { status: "skipped" });
        return this.set(e.step_id, { attempts: e.attempt });
      }
      case "gate_resolved":
        this.gates.set(e.step_id, e.outcome);
        // Killed from the kill on, while an on_kill route runs its target (runtime.md §6.1).
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
        const to = this.flow.steps.findIndex((s) => s.id === e.to_step_id);
        if (to < 0) return false;
        // A gate's approve or kill route only moves the position: the target keeps its output and
        // attempts (runtime.md §5); the other routes clear from their target on.
        if (e.route !== "on_approve" && e.route !== "on_kill")
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

  /** Whether the step's current output is one the fuzzer did not see (it reads None). */
  outputUnseen(stepId: string): boolean {
    return this.unseen.has(stepId);
  }

  /** The flow finished (its `flow_finished` event): a killed flow still runs an on_kill target first. */
  get finished(): boolean {
    return this.ended;
  }

  private set(id: string, change: Partial<StepView>): boolean {
    const known = this.steps.get(id);
    if (known === undefined) return false;
    this.steps.set(id, { ...known, ...change });
    return true;
  }

  /** The state as the property expressions read it. */
  snapshot(): PyValue {
    const steps = [...this.steps].map(
      ([id, s]) => [id, { status: s.status, attempts: s.attempts, output: s.output }] as const,
    );
    const gates = [...this.gates].map(([id, outcome]) => [id, { outcome }] as const);
    return fromJsonValue({
      input: this.input,
      flow: { status: this.status, round: this.round },
      steps: record(steps),
      gates: record(gates),
    });
  }
}
