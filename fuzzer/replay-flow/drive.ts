// Drives one spec with a recording: a fresh in-memory engine (the fuzzer's, fixed clock and
// numbered ids), planned with the recorded flow's name and input, then each recorded answer sent
// when the flow asks for that step, in order. What the interpreter did is read from its typed
// events (docs/reference/runtime.md §24), reduced to facts that do not depend on time or ids, so that two drives
// can be compared fact by fact. The drive stops where the flow no longer asks for what the
// recording answers next, or at a step whose answers the store does not keep (fan-out and sub-flow steps).
import type { FlowEvent, StratumApi, Violation } from "../../interpreter/index";
import { wireToPlain } from "../../interpreter/index";
import type { PyValue } from "../../stdlib/index";
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
): Promise<Drive> {
  return new Driver(specText, literals, recording).drive();
}

class Driver {
  private readonly log = new EventLog();
  private readonly api: StratumApi;
  private readonly facts: Fact[] = [];
  private rootId = "";
  private entry = -1;

  constructor(
    private readonly specText: string,
    literals: readonly string[],
    private readonly recording: RecordedFlow,
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
    if (event.flow_id !== this.rootId) return; // a child's events are its parent's step
    this.facts.push(factOf(event, this.entry));
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
    for (let i = 0; i < entries.length; i++) {
      this.entry = i;
      const entry = entries[i]!;
      const next = await this.answer(entry, response, i);
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
    entry: RecordedEntry,
    response: Plain,
    index: number,
  ): Promise<{ readonly response: Plain } | DriveEnd> {
    const status = str(response.status);
    const current = stepOf(response);
    const flow_id = this.rootId;
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
        return this.step(entry, response, index);
    }
  }

  private async step(
    entry: Extract<RecordedEntry, { kind: "step" }>,
    response: Plain,
    index: number,
  ): Promise<{ readonly response: Plain } | DriveEnd> {
    const status = str(response.status);
    if (stepOf(response) !== entry.step) return { kind: "mismatch", entry: index };
    if (status === "execute_flow")
      return unreplayable(index, entry.step, "a sub-flow step: its child's answers are another flow's");
    if (status === FAN_OUT_STATUS || fansOut(str(response.step_mode)))
      return unreplayable(index, entry.step, "its tasks' reports are not kept, only their aggregate");
    if (!STEP_STATUSES.has(status)) return { kind: "mismatch", entry: index };
    const flow_id = this.rootId;
    const step_id = entry.step;
    if (entry.reports.length > 0) await this.iterate(step_id, entry.reports);
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

  private async iterate(step_id: string, reports: readonly PyValue[]): Promise<void> {
    const flow_id = this.rootId;
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

function factOf(event: FlowEvent, entry: number): Fact {
  const base = { type: event.type, to: null, reasons: [] as readonly Violation[], entry };
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
  return a.type === b.type && a.step === b.step && a.detail === b.detail && a.to === b.to;
}
