// The events of a committed call (observer.ts), read from the flows before and after it: what each
// loaded flow looked like when the call began (`positionsOf`, O(1) per flow) against its committed
// state (the records it appended, its current step, its status) and, for the flow that got a
// result, the response's violations. The flow tools know nothing of this.
import type { StepIR } from "../../checker/ir/types";
import type { PyValue } from "../../stdlib/values/value";
import type { PersistedStatus, TraceRecord } from "../base/flow-state";
import { outputStepOf } from "../flow/completion";
import { currentStep } from "../flow/current";
import { stepModeOf } from "../flow/kinds/index";
import type { Clock } from "../flow/ports";
import type { FlowRun } from "../flow/run";
import { inProgress, persistedStatus } from "../flow/status";
import type { TxFact } from "../flow/tx";
import { type Violation, violationTexts } from "../flow/violations";
import type { Response } from "../wire/wire";
import type { FlowEvent, FlowEventBase, StepMode, StepOutcome } from "./observer";
import type { EngineTx } from "./transaction";

/** The step or gate a flow in progress waits on. */
interface OpenStep {
  readonly step: StepIR;
  readonly round: number;
  readonly seq: number;
  readonly attempt: number;
  readonly childFlowId: string | null;
  /** Where it was dispatched in this process (monotonic ms for steps, wall ms for gates). */
  readonly dispatchedAt: number | undefined;
}

/** A loaded flow as the call found it. */
export interface Position {
  readonly status: PersistedStatus;
  /** The flow still has a step to run (see `ongoing`). */
  readonly ongoing: boolean;
  readonly open: OpenStep | null;
  readonly recordCount: number;
  readonly roundCount: number;
  readonly currentRecords: number;
  readonly lastRecord: TraceRecord | undefined;
}

/** What the call was: the flow whose current step got a result (stratum_step_done), if any. */
export interface CallInfo {
  readonly resultFor: string | null;
}

export function positionsOf(loaded: ReadonlyMap<string, FlowRun>): Map<string, Position> {
  const out = new Map<string, Position>();
  for (const [id, run] of loaded) out.set(id, positionOf(run));
  return out;
}

function positionOf(run: FlowRun): Position {
  const s = run.state;
  return {
    status: persistedStatus(run),
    ongoing: ongoing(run),
    open: openStep(run),
    recordCount: recordCount(run),
    roundCount: s.rounds.length,
    currentRecords: s.records.length,
    lastRecord: s.records[s.records.length - 1],
  };
}

function recordCount(run: FlowRun): number {
  let n = run.state.records.length;
  for (const round of run.state.rounds) n += round.length;
  return n;
}

/**
 * Whether the flow still has a step to run: in progress, or killed at a gate whose `on_kill` routed
 * it on (its status is `killed` from the kill on, but it goes on through the target:
 * docs/reference/runtime.md §6.1); it finishes when that runs out.
 */
function ongoing(run: FlowRun): boolean {
  const status = persistedStatus(run);
  return inProgress(status) || (status === "killed" && currentStep(run) !== null);
}

function openStep(run: FlowRun): OpenStep | null {
  if (!ongoing(run)) return null;
  const step = currentStep(run);
  if (step === null) return null;
  const gate = step.kind === "gate";
  return {
    step,
    round: run.state.round,
    seq: recordCount(run),
    attempt: gate ? 1 : (run.state.attempts.get(step.id) ?? 0) + 1,
    childFlowId: step.kind === "flow" ? run.state.active_child_flow_id : null,
    dispatchedAt: (gate ? run.timing.gateDispatchedAt : run.timing.stepDispatchedAt).get(step.id),
  };
}

function sameOpen(a: OpenStep | null, b: OpenStep | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.step.id === b.step.id &&
    a.round === b.round &&
    a.seq === b.seq &&
    a.attempt === b.attempt &&
    a.childFlowId === b.childFlowId
  );
}

/** The records the call appended (a revise moves the current ones into `rounds`); [] after a revert. */
function appendedRecords(before: Position | null, run: FlowRun): readonly TraceRecord[] {
  const s = run.state;
  if (before === null) return [...s.rounds.flat(), ...s.records];
  const n = before.currentRecords;
  const continues = (list: readonly TraceRecord[]) => n === 0 || list[n - 1] === before.lastRecord;
  if (s.rounds.length === before.roundCount) {
    return s.records.length >= n && continues(s.records) ? s.records.slice(n) : [];
  }
  const archived = s.rounds[s.rounds.length - 1];
  if (s.rounds.length === before.roundCount + 1 && archived !== undefined && continues(archived)) {
    return [...archived.slice(n), ...s.records];
  }
  return [];
}

function modeOf(step: StepIR): StepMode {
  return stepModeOf(step);
}

function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const v of value) if (typeof v === "string") out.push(v);
  return out;
}

/** The engine's view the events need besides the call: the clock and the flows it remembers. */
export interface ObserveContext {
  readonly clock: Clock;
  /** A flow in memory (no I/O), for the root of a child whose parent the call did not load. */
  readonly remembered: (flowId: string) => FlowRun | null;
}

/** The events of a committed call, flow by flow in the order the call touched them. */
export function observedEvents(
  tx: EngineTx,
  before: ReadonlyMap<string, Position>,
  call: CallInfo,
  response: Response,
  ctx: ObserveContext,
): FlowEvent[] {
  const time_ms = ctx.clock.wallMs();
  const nowMono = ctx.clock.monoMs();
  const runOf = (id: string) => tx.read(id) ?? ctx.remembered(id);
  const events: FlowEvent[] = [];
  const ids = [...tx.working.keys(), ...[...tx.detached].filter((id) => !tx.working.has(id))];
  for (const id of ids) {
    const created = tx.created.has(id);
    const run = tx.read(id);
    if (run === null || (created && tx.detached.has(id))) continue; // never persisted
    const base: FlowEventBase = {
      time_ms,
      flow_id: id,
      flow_name: run.state.flow_name,
      root_flow_id: rootOf(run, runOf),
    };
    const pos = created ? null : (before.get(id) ?? null);
    const facts = tx.facts.filter((f) => f.flowId === id);
    const flow = new FlowEvents(base, run, nowMono, events, facts);
    if (created) flow.started();
    flow.membersJudged();
    const records = appendedRecords(pos, run);
    const open = pos?.open ?? null;
    const result = call.resultFor === id ? response : null;
    // A result with violations and attempts left ends the attempt without a record.
    const rejected = open !== null && result !== null && flow.rejected(open, records, result);
    const ended = flow.records(records, pos?.recordCount ?? 0, rejected ? null : open, result) || rejected;
    flow.routedAndFailed();
    const now = persistedStatus(run);
    const dropped = tx.detached.has(id) && ongoing(run);
    const after = dropped ? null : openStep(run);
    if (!ended && open !== null && !sameOpen(open, after)) flow.abandoned(open);
    if (after !== null && !sameOpen(open, after)) flow.dispatched(after);
    const was = pos === null ? true : pos.ongoing;
    if (dropped) flow.finished("detached");
    else if (was && !ongoing(run)) flow.finished(now);
  }
  return events;
}

/** The top-most ancestor reachable in memory; a parent that is not is taken as the root. */
function rootOf(run: FlowRun, runOf: (id: string) => FlowRun | null): string {
  let id = run.state.flow_id;
  let parent = run.state.parent_flow_id;
  const seen = new Set<string>([id]);
  while (parent !== null && !seen.has(parent)) {
    id = parent;
    seen.add(id);
    parent = runOf(id)?.state.parent_flow_id ?? null;
  }
  return id;
}

/**
 * The events of one flow, appended to `out`. Events are built as plain literals, field by field,
 * the base's fields too: this runs inside every committed call, and a literal that spreads another
 * object defines each later field through V8's slow path (about half a microsecond each).
 */
class FlowEvents {
  constructor(
    private readonly base: FlowEventBase,
    private readonly run: FlowRun,
    private readonly nowMono: number,
    private readonly out: FlowEvent[],
    private readonly facts: readonly TxFact[],
  ) {}

  /** How many of each step's stored outputs (TxFact `output`) the records read so far took. */
  private readonly outputsTaken = new Map<string, number>();

  /**
   * The output the next record of the step stored: the call's output facts of the step are taken
   * in order, one per record (a call may record a step twice, e.g. after a policy's route back).
   */
  private storedOutput(stepId: string): PyValue | undefined {
    const n = this.outputsTaken.get(stepId) ?? 0;
    let seen = 0;
    for (const f of this.facts) {
      if (f.type !== "output" || f.stepId !== stepId) continue;
      if (seen++ === n) {
        this.outputsTaken.set(stepId, n + 1);
        return f.output;
      }
    }
    return undefined;
  }

  /** The typed reasons the call's checks gave for a step of this flow (the last verdict), if any. */
  private verdictOf(stepId: string): readonly Violation[] | undefined {
    let reasons: readonly Violation[] | undefined;
    for (const f of this.facts) if (f.type === "verdict" && f.stepId === stepId) reasons = f.reasons;
    return reasons;
  }

  membersJudged(): void {
    const b = this.base;
    for (const f of this.facts) {
      if (f.type !== "members") continue;
      this.out.push({
        time_ms: b.time_ms,
        flow_id: b.flow_id,
        flow_name: b.flow_name,
        root_flow_id: b.root_flow_id,
        type: "members_judged",
        step_id: f.stepId,
        members: f.members,
      });
    }
  }

  /** The routes taken and the expressions that failed, in the order the call met them. */
  routedAndFailed(): void {
    const b = this.base;
    for (const f of this.facts) {
      if (f.type === "routed") {
        this.out.push({
          time_ms: b.time_ms,
          flow_id: b.flow_id,
          flow_name: b.flow_name,
          root_flow_id: b.root_flow_id,
          type: "step_routed",
          from_step_id: f.from,
          to_step_id: f.to,
          route: f.route,
        });
      } else if (f.type === "expression_failed") {
        this.out.push({
          time_ms: b.time_ms,
          flow_id: b.flow_id,
          flow_name: b.flow_name,
          root_flow_id: b.root_flow_id,
          type: "expression_failed",
          step_id: f.stepId,
          field: f.field,
          error: f.error,
          text: f.text,
        });
      }
    }
  }

  started(): void {
    const b = this.base;
    const s = this.run.state;
    this.out.push({
      time_ms: b.time_ms,
      flow_id: b.flow_id,
      flow_name: b.flow_name,
      root_flow_id: b.root_flow_id,
      type: "flow_started",
      parent_flow_id: s.parent_flow_id,
      parent_step_id: s.parent_step_id,
    });
  }

  /** One event per appended record; true when one of them ended the step the flow waited on. */
  records(
    records: readonly TraceRecord[],
    firstSeq: number,
    open: OpenStep | null,
    response: Response | null,
  ): boolean {
    const b = this.base;
    let ended = false;
    for (let i = 0; i < records.length; i++) {
      const r = records[i] as TraceRecord;
      const seq = firstSeq + i;
      const endsOpen = open !== null && i === 0 && open.step.id === r.step_id;
      ended ||= endsOpen;
      const here = endsOpen && open.dispatchedAt !== undefined;
      if (r.type === "step") {
        const reasons = this.verdictOf(r.step_id) ?? [];
        const violations = reasons.length > 0 ? violationTexts(reasons) : stringList(response?.violations);
        this.out.push({
          time_ms: b.time_ms,
          flow_id: b.flow_id,
          flow_name: b.flow_name,
          root_flow_id: b.root_flow_id,
          step_id: r.step_id,
          round: r.round,
          seq,
          type: "step_finished",
          step_mode: r.step_mode,
          attempt: r.attempts,
          child_flow_id: r.child_flow_id,
          outcome: violations.length > 0 ? "exhausted" : "accepted",
          failure: null,
          violations,
          reasons,
          duration_ms: r.duration_ms,
          dispatched_here: here,
          output: this.storedOutput(r.step_id),
        });
      } else if (r.type === "gate") {
        this.out.push({
          time_ms: b.time_ms,
          flow_id: b.flow_id,
          flow_name: b.flow_name,
          root_flow_id: b.root_flow_id,
          step_id: r.step_id,
          round: r.round,
          seq,
          type: "gate_resolved",
          outcome: r.outcome,
          resolved_by: r.resolved_by,
          rationale: r.rationale,
          duration_ms: here ? r.duration_ms : this.sinceStart(),
          dispatched_here: here,
          ...(r.resolved_by_name === undefined ? {} : { resolved_by_name: r.resolved_by_name }),
        });
      } else if (r.type === "skip" && endsOpen && open.step.kind !== "gate") {
        this.out.push(this.attemptEnded(open, "skipped", null, [], []));
      } else {
        this.out.push({
          time_ms: b.time_ms,
          flow_id: b.flow_id,
          flow_name: b.flow_name,
          root_flow_id: b.root_flow_id,
          step_id: r.step_id,
          round: r.round,
          seq,
          type: "step_skipped",
          kind: r.type === "skip" ? "skip" : "policy",
          reason: r.type === "skip" ? r.skip_reason : r.rationale,
        });
      }
    }
    return ended;
  }

  /** A result with violations and attempts left: the attempt ended without a record. */
  rejected(open: OpenStep, records: readonly TraceRecord[], response: Response): boolean {
    if (open.step.kind === "gate" || this.run.state.attempts.get(open.step.id) !== open.attempt) return false;
    const first = records[0];
    if (first !== undefined && first.type === "step" && first.step_id === open.step.id) return false;
    const status = typeof response.status === "string" ? response.status : "";
    const failure =
      status === "ensure_failed" || status === "schema_failed" || status === "guardrail_blocked"
        ? status
        : null;
    const reasons = this.verdictOf(open.step.id) ?? [];
    this.out.push(this.attemptEnded(open, "rejected", failure, stringList(response.violations), reasons));
    return true;
  }

  abandoned(open: OpenStep): void {
    const b = this.base;
    this.out.push({
      time_ms: b.time_ms,
      flow_id: b.flow_id,
      flow_name: b.flow_name,
      root_flow_id: b.root_flow_id,
      step_id: open.step.id,
      round: open.round,
      seq: open.seq,
      type: "step_abandoned",
      step_mode: open.step.kind === "gate" ? "gate" : modeOf(open.step),
      attempt: open.attempt,
      child_flow_id: open.childFlowId,
      duration_ms: this.duration(open),
      dispatched_here: open.dispatchedAt !== undefined,
    });
  }

  dispatched(open: OpenStep): void {
    const b = this.base;
    if (open.step.kind === "gate") {
      this.out.push({
        time_ms: b.time_ms,
        flow_id: b.flow_id,
        flow_name: b.flow_name,
        root_flow_id: b.root_flow_id,
        step_id: open.step.id,
        round: open.round,
        seq: open.seq,
        type: "gate_awaited",
      });
      return;
    }
    this.out.push({
      time_ms: b.time_ms,
      flow_id: b.flow_id,
      flow_name: b.flow_name,
      root_flow_id: b.root_flow_id,
      step_id: open.step.id,
      round: open.round,
      seq: open.seq,
      type: "step_dispatched",
      step_mode: modeOf(open.step),
      attempt: open.attempt,
      child_flow_id: open.childFlowId,
    });
  }

  finished(status: PersistedStatus | "detached"): void {
    if (status === "running" || status === "awaiting_gate") return;
    const b = this.base;
    const s = this.run.state;
    this.out.push({
      time_ms: b.time_ms,
      flow_id: b.flow_id,
      flow_name: b.flow_name,
      root_flow_id: b.root_flow_id,
      type: "flow_finished",
      parent_flow_id: s.parent_flow_id,
      parent_step_id: s.parent_step_id,
      status,
      duration_ms: this.sinceStart(),
      output_step_id: status === "complete" ? outputStepOf(this.run) : null,
    });
  }

  private attemptEnded(
    open: OpenStep,
    outcome: StepOutcome,
    failure: string | null,
    violations: string[],
    reasons: readonly Violation[],
  ): FlowEvent {
    const b = this.base;
    return {
      time_ms: b.time_ms,
      flow_id: b.flow_id,
      flow_name: b.flow_name,
      root_flow_id: b.root_flow_id,
      step_id: open.step.id,
      round: open.round,
      seq: open.seq,
      type: "step_finished",
      step_mode: modeOf(open.step),
      attempt: open.attempt,
      child_flow_id: open.childFlowId,
      outcome,
      failure,
      violations,
      reasons,
      duration_ms: this.duration(open),
      dispatched_here: open.dispatchedAt !== undefined,
    };
  }

  /** Since the open step's dispatch here (gates: wall clock), else since the flow started or was restored. */
  private duration(open: OpenStep): number {
    if (open.dispatchedAt === undefined) return this.sinceStart();
    const now = open.step.kind === "gate" ? this.base.time_ms : this.nowMono;
    return Math.max(0, now - open.dispatchedAt);
  }

  private sinceStart(): number {
    return Math.max(0, this.nowMono - this.run.timing.startedAt);
  }
}
