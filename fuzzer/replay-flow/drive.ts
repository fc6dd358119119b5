// Drives one spec with a recording: a fresh in-memory engine (the fuzzer's, fixed clock and
// numbered ids), planned with the recorded flow's name and input, then each recorded answer sent
// when the flow asks for that step, in order. What the interpreter did is read from its typed
// events (docs/reference/runtime.md §24), reduced to facts that do not depend on time or ids, so that two drives
// can be compared fact by fact. A sub-flow step is answered by its child flow's own recording (the
// child the store links to the step), replayed in the child the engine starts, and the child's
// completion is reported to the parent step as an agent does; the child's facts say which child
// they belong to. The drive stops where the flow no longer asks for what the recording answers
// next, or at a step whose answers the store does not keep (fan-out steps, a sub-flow step whose
// child flow is not in the store).
import type { FlowEvent, StratumApi, Violation } from "../../interpreter/index";
import { wireToPlain } from "../../interpreter/index";
import { fromJsonValue, type PyValue } from "../../stdlib/index";
import { EventLog, fuzzEngine, virtualFiles } from "../engine";
import { FAN_OUT_STATUS, fansOut } from "../run/kinds/index";
import type { Plain } from "../run/session";
import type { RecordedEntry, RecordedFlow } from "./recording";

/** One thing the interpreter did to the replayed flow, without times and ids. */
export interface Fact {
  /** An event's type, or `iteration_reported`: how the loop answered a replayed iteration report. */
  readonly type: FlowEvent["type"] | "iteration_reported";
  readonly step: string | null;
  /** What distinguishes two facts of one type and step: an outcome, a kind, a route, a status. */
  readonly detail: string;
  /** The route's target (step_routed). */
  readonly to: string | null;
  /** The typed reasons of a rejected or exhausted attempt. */
  readonly reasons: readonly Violation[];
  /** The index of the recorded entry being answered when it happened (-1: the plan). */
  readonly entry: number;
  /** Set when it happened in a sub-flow's child: which child, run by which step. */
  readonly child: ChildPlace | null;
}

/** A sub-flow's child as the facts name it: its flow, and the parent flow and step that run it. */
export interface ChildPlace {
  readonly flow: string;
  readonly parentFlow: string;
  readonly parentStep: string;
  /** Some result of the child's recording was not in the store and is reconstructed. */
  readonly reconstructed: boolean;
}

/** Why a drive stopped. */
export type DriveEnd =
  /** Every recorded answer was sent. */
  | { readonly kind: "recording_end" }
  /** The flow asked for something else than the next recorded answer. */
  | { readonly kind: "mismatch"; readonly entry: number }
  /** The next recorded answer is for a step the store keeps no replayable answer of. */
  | { readonly kind: "unreplayable"; readonly entry: number; readonly step: string; readonly why: string }
  /** stratum_plan refused the flow (its message). */
  | { readonly kind: "plan_refused"; readonly message: string };

export interface Drive {
  readonly facts: readonly Fact[];
  readonly end: DriveEnd;
  /** Recorded entries consumed before the drive stopped. */
  readonly consumed: number;
}

const STEP_STATUSES = new Set(["execute_step", "ensure_failed", "schema_failed", "guardrail_blocked"]);

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** Drives `specText` (already checked valid) with `recording`; `literals`: the virtual files' text. */
export async function driveRecording(
  specText: string,
  literals: readonly string[],
  recording: RecordedFlow,
  children: ReadonlyMap<string, RecordedFlow> = new Map(),
): Promise<Drive> {
  return new Driver(specText, literals, recording, children).drive();
}

/** The flow a recorded answer is sent to, and how its facts are named. */
interface Target {
  readonly flowId: string;
  readonly name: string;
  readonly child: ChildPlace | null;
}

class Driver {
  private readonly log = new EventLog();
  private readonly api: StratumApi;
  private readonly facts: Fact[] = [];
  private rootId = "";
  private entry = -1;
  /** The children being replayed, by the engine's flow id. */
  private readonly places = new Map<string, ChildPlace>();

  constructor(
    private readonly specText: string,
    literals: readonly string[],
    private readonly recording: RecordedFlow,
    private readonly children: ReadonlyMap<string, RecordedFlow>,
  ) {
    this.api = fuzzEngine(virtualFiles(literals), { observer: this.log.observer });
  }

  private async send(call: (api: StratumApi) => Promise<unknown>): Promise<Plain> {
    this.log.take();
    const response = wireToPlain((await call(this.api)) as never) as Plain;
    for (const event of this.log.take()) this.note(event);
    return response;
  }

  private note(event: FlowEvent): void {
    if (event.flow_id === this.rootId) this.facts.push(factOf(event, this.entry, null));
    const place = this.places.get(event.flow_id);
    if (place !== undefined) this.facts.push(factOf(event, this.entry, place));
  }

  async drive(): Promise<Drive> {
    const planned = await this.api.plan({
      spec: this.specText,
      flow: this.recording.flowName,
      inputs: this.recording.inputs,
    });
    let response = wireToPlain(planned as never) as Plain;
    if (str(response.status) === "error") {
      return this.ended({ kind: "plan_refused", message: str(response.message) }, 0);
    }
    // A flow whose first step is a sub-flow step answers with the child's payload and the parent's id.
    this.rootId = str(response.flow_id) || str(response.parent_flow_id);
    for (const event of this.log.take()) this.note(event);
    const entries = this.recording.entries;
    const root: Target = { flowId: this.rootId, name: this.recording.flowName, child: null };
    for (let i = 0; i < entries.length; i++) {
      this.entry = i;
      const entry = entries[i]!;
      const next = await this.answer(root, entry, response, i);
      if ("kind" in next) return this.ended(next, i);
      response = next.response;
    }
    return this.ended({ kind: "recording_end" }, entries.length);
  }

  private ended(end: DriveEnd, consumed: number): Drive {
    return { facts: this.facts, end, consumed };
  }

  /** Sends one recorded answer to the flow waiting with `response`; the next response, or why not. */
  private async answer(
    target: Target,
    entry: RecordedEntry,
    response: Plain,
    index: number,
  ): Promise<{ readonly response: Plain } | DriveEnd> {
    const status = str(response.status);
    const current = stepOf(response);
    const flow_id = target.flowId;
    const mismatch: DriveEnd = { kind: "mismatch", entry: index };
    switch (entry.kind) {
      case "policy":
        return { response }; // approved by the interpreter itself, in the call that passed it
      case "skip": {
        // By stratum_skip_step when the flow is waiting at the step; else by its skip_if.
        if (current !== entry.step || !(STEP_STATUSES.has(status) || status === "retries_exhausted"))
          return { response };
        const step_id = entry.step;
        return {
          response: await this.send((api) => api.skipStep({ flow_id, step_id, reason: entry.reason })),
        };
      }
      case "gate": {
        if (status !== "await_gate" || current !== entry.step) return mismatch;
        const step_id = entry.step;
        const answer = await this.send((api) =>
          api.gateResolve({
            flow_id,
            step_id,
            outcome: entry.outcome,
            rationale: entry.rationale,
            resolved_by: entry.resolvedBy,
          }),
        );
        // A refused revise (max_rounds) leaves the gate pending, as the recording's next record shows.
        if (str(answer.error_type) === "max_rounds_exceeded") return { response: { status, step_id } };
        return { response: answer };
      }
      case "step":
        return this.step(target, entry, response, index);
    }
  }

  private async step(
    target: Target,
    entry: Extract<RecordedEntry, { kind: "step" }>,
    response: Plain,
    index: number,
  ): Promise<{ readonly response: Plain } | DriveEnd> {
    const status = str(response.status);
    if (stepOf(response) !== entry.step) return { kind: "mismatch", entry: index };
    if (status === "execute_flow") return this.subFlow(target, entry, response, index);
    if (status === FAN_OUT_STATUS || fansOut(str(response.step_mode)))
      return unreplayable(index, entry.step, "its tasks' reports are not kept, only their aggregate");
    if (!STEP_STATUSES.has(status)) return { kind: "mismatch", entry: index };
    const flow_id = target.flowId;
    const step_id = entry.step;
    if (entry.reports.length > 0) await this.iterate(target, step_id, entry.reports);
    let answer: Plain = response;
    for (let attempt = 1; attempt <= entry.attempts; attempt++) {
      const result: PyValue = entry.result ?? null;
      answer = await this.send((api) => api.stepDone({ flow_id, step_id, result }));
      // The recorded attempt count: a step that was exhausted is rejected that many times.
      const retried = STEP_STATUSES.has(str(answer.status)) && str(answer.status) !== "execute_step";
      if (!(retried && str(answer.step_id) === step_id)) break;
    }
    if (str(answer.error_type) === "retries_exhausted")
      return { response: { status: "retries_exhausted", step_id } };
    return { response: answer };
  }

  /**
   * A sub-flow step: its child's recorded answers, sent to the child the engine started, then the
   * child's completion reported to the parent step (as an agent does). Only the child the store
   * links to the step's record is known: a step whose child is not in the store, or that ran more
   * than one child (a retried sub-flow step), stops the drive.
   */
  private async subFlow(
    target: Target,
    entry: Extract<RecordedEntry, { kind: "step" }>,
    response: Plain,
    index: number,
  ): Promise<{ readonly response: Plain } | DriveEnd> {
    const step_id = entry.step;
    const recorded = entry.child === null ? undefined : this.children.get(entry.child);
    if (recorded === undefined) {
      return unreplayable(
        index,
        step_id,
        entry.child === null
          ? "a sub-flow step whose record names no child flow"
          : `a sub-flow step whose child flow ${entry.child} is not in the store`,
      );
    }
    if (entry.attempts > 1) {
      return unreplayable(
        index,
        step_id,
        `a sub-flow step run ${entry.attempts} times: the store links only its last child flow`,
      );
    }
    const child: Target = {
      flowId: str(response.child_flow_id),
      name: recorded.flowName,
      child: {
        flow: recorded.flowName,
        parentFlow: target.name,
        parentStep: step_id,
        reconstructed: recorded.reconstructed > 0,
      },
    };
    this.places.set(child.flowId, child.child!);
    const first = response.child_step;
    let answer: Plain =
      first !== null && typeof first === "object" && !Array.isArray(first)
        ? (first as Plain)
        : await this.send((api) => api.resume({ flow_id: child.flowId }));
    for (const childEntry of recorded.entries) {
      const next = await this.answer(child, childEntry, answer, index);
      if ("kind" in next) {
        if (next.kind !== "unreplayable") return { kind: "mismatch", entry: index };
        return unreplayable(
          index,
          step_id,
          `in its child flow '${recorded.flowName}', at step '${next.step}': ${next.why}`,
        );
      }
      answer = next.response;
    }
    // The child's end, as the engine answered its last call: reported to the parent step.
    const ended =
      str(answer.flow_id) === child.flowId &&
      (str(answer.status) === "complete" ||
        str(answer.status) === "killed" ||
        str(answer.error_type) === "retries_exhausted");
    if (!ended) return { kind: "mismatch", entry: index };
    const result = fromJsonValue(answer);
    const reported = await this.send((api) => api.stepDone({ flow_id: target.flowId, step_id, result }));
    if (str(reported.error_type) === "retries_exhausted")
      return { response: { status: "retries_exhausted", step_id } };
    return { response: reported };
  }

  private async iterate(target: Target, step_id: string, reports: readonly PyValue[]): Promise<void> {
    const flow_id = target.flowId;
    const started = await this.send((api) => api.iterationStart({ flow_id, step_id }));
    if (str(started.status) !== "iteration_started") return;
    for (const result of reports) {
      const r = await this.send((api) => api.iterationReport({ flow_id, step_id, result }));
      // Iteration reports have no events: the loop's answer is the fact.
      this.facts.push({
        type: "iteration_reported",
        step: step_id,
        detail: str(r.outcome) || str(r.status),
        to: null,
        reasons: [],
        entry: this.entry,
        child: target.child,
      });
      if (str(r.status) !== "iteration_continue") return;
    }
  }
}

/** The step a response waits at: a sub-flow step's payload names it as the parent's step. */
function stepOf(response: Plain): string {
  return str(response.status) === "execute_flow" ? str(response.parent_step_id) : str(response.step_id);
}

function unreplayable(entry: number, step: string, why: string): DriveEnd {
  return { kind: "unreplayable", entry, step, why };
}

function factOf(event: FlowEvent, entry: number, child: ChildPlace | null): Fact {
  const base = { type: event.type, to: null, reasons: [] as readonly Violation[], entry, child };
  switch (event.type) {
    case "flow_started":
      return { ...base, step: null, detail: "" };
    case "step_dispatched":
      return { ...base, step: event.step_id, detail: "" };
    case "gate_awaited":
      return { ...base, step: event.step_id, detail: "" };
    case "step_finished":
      return {
        ...base,
        step: event.step_id,
        detail: event.failure === null ? event.outcome : `${event.outcome} (${event.failure})`,
        reasons: event.reasons,
      };
    case "gate_resolved":
      return { ...base, step: event.step_id, detail: event.outcome };
    case "step_skipped":
      return { ...base, step: event.step_id, detail: event.kind };
    case "step_abandoned":
      return { ...base, step: event.step_id, detail: "" };
    case "flow_finished":
      return { ...base, step: null, detail: event.status };
    case "members_judged":
      return { ...base, step: event.step_id, detail: "" };
    case "expression_failed":
      return { ...base, step: event.step_id, detail: event.field };
    case "step_routed":
      return { ...base, step: event.from_step_id, detail: event.route, to: event.to_step_id };
  }
}

/** Whether two facts say the same (the entry they happened at aside). */
export function sameFact(a: Fact, b: Fact): boolean {
  return (
    a.type === b.type &&
    a.step === b.step &&
    a.detail === b.detail &&
    a.to === b.to &&
    a.child?.flow === b.child?.flow &&
    a.child?.parentStep === b.child?.parentStep
  );
}
