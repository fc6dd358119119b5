// Reads a run's exchanges (call, response and the interpreter's typed events) and turns what the
// interpreter answered into findings and coverage. It decides nothing about the run and
// re-implements no flow logic: every finding is something the interpreter reported — a typed
// reason in an event (why a result was rejected, what raised), a response's structured fields
// (status, error_type, step_id, routed_from, input, source), a completion payload — and never a
// message text, so a reworded message cannot change a verdict. The stored trace (stratum_audit)
// is consulted only to tell why a step's output is null.

import type { CheckedSpec, FlowIR, StepIR } from "../../checker/index";
import {
  FUZZ_ACCUMULATE_FAILS,
  FUZZ_ENSURE_RAISES,
  FUZZ_EXIT_CRITERION_RAISES,
  FUZZ_FLOW_OUTPUT,
  FUZZ_GUARDRAIL_BLOCKS_ALL,
  FUZZ_INPUT_READS_SKIPPED,
  FUZZ_INPUT_UNRESOLVED,
  FUZZ_INTERNAL,
  FUZZ_PROPERTY_VIOLATED,
  FUZZ_SKIP_IF_RAISES,
} from "../../checker/index";
import { contractViolations, type FlowEvent, type Violation } from "../../interpreter/index";
import { fromJsonValue } from "../../stdlib/index";
import { conversionHint } from "../conversion-hint";
import { ensureOf } from "../target";
import type { Shapes } from "../values/shapes";
import { CacheWatch } from "./cache-watch";
import { blocksEveryResult } from "./guardrail-proof";
import { FAN_OUT_STATUS, FUZZ_KINDS } from "./kinds/index";
import type { MemberMemory } from "./kinds/kind";
import { boundOf, type Cause, type Revisit, revisitOf, unboundedLoop, type Visit } from "./loops";
import { readsNullProducer } from "./null-producer";
import {
  type Coverage,
  emptyCoverage,
  identityOf,
  type Observation,
  type RelatedPlace,
  type RunEnd,
  stepKey,
} from "./observation";
import { type PropertyBreach, PropertyMonitor, propertiesOf } from "./properties";
import { errorText, isRetryOrFailure, isShape, obj, rejectionOf, str, withHint } from "./response-reading";
import type { Exchange, Plain, Session } from "./session";
import { isRefusedTaskList } from "./task-list-refusal";

/** The reason the fuzzer's human gives to stratum_skip_step (such skips are not the spec's doing). */
export const MANUAL_SKIP_REASON = "skipped by hand (stratumc fuzz)";

const DISPATCH_STATUSES = new Set([
  "execute_step",
  "ensure_failed",
  "schema_failed",
  "guardrail_blocked",
  "await_gate",
  FAN_OUT_STATUS,
]);

export class Observer {
  readonly observations: Observation[] = [];
  private readonly seen = new Set<string>();
  readonly coverage: Coverage = emptyCoverage();
  /** Set when the run must stop (a stuck flow, an internal error, a loop). */
  stopped: RunEnd | null = null;
  /** flow id → flow name. */
  readonly flowNames = new Map<string, string>();
  private readonly visits = new Map<string, Map<string, number>>();
  private readonly history = new Map<string, Visit[]>();
  /** Whether the run used stratum_skip_step (findings after it may depend on that manual skip). */
  manualSkip = false;
  /** Whether an aimed-at pass was rejected in this run (the run is not the path it meant to be). */
  unfaithful = false;
  /** The first time the run came back to a state it was in (noteRevisit). */
  revisit: Revisit | null = null;
  /** flow, step and member → the member's verdict (a lost race names earlier calls' candidates). */
  private readonly memberVerdicts: MemberMemory = new Map();
  /** The spec's properties of the run's root flow, checked after each of its transitions. */
  private properties: PropertyMonitor | null = null;
  private planned = false;
  /** What the result cache served (cache-watch.ts). */
  private readonly cache: CacheWatch;

  constructor(
    private readonly spec: CheckedSpec,
    private readonly shapes: Shapes,
    private readonly session: Session,
  ) {
    this.cache = new CacheWatch(spec);
  }

  private flowOf(flowId: string): FlowIR | undefined {
    const name = this.flowNames.get(flowId);
    return name === undefined ? undefined : this.spec.flows.get(name);
  }

  private add(o: Omit<Observation, "related"> & { related?: readonly RelatedPlace[] }): void {
    const id = identityOf(o);
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.observations.push({
      ...o,
      related: o.related ?? [],
      ...(this.manualSkip ? { afterManualSkip: true } : {}),
    });
  }

  /** Observes the exchange at `index` of the session's record. */
  async observe(index: number): Promise<void> {
    const ex = this.session.exchanges[index];
    if (ex === undefined) return;
    const { call, response } = ex;
    const args = call.arguments;
    const callFlowId = this.realFlowId(ex);
    if (call.tool === "stratum_plan" && callFlowId !== "") this.flowNames.set(callFlowId, str(args.flow));
    if (call.tool === "stratum_plan" && !this.planned) {
      this.planned = true;
      this.watchProperties(callFlowId, str(args.flow), args.inputs);
    }
    if (call.tool === "stratum_skip_step") this.manualSkip = true;
    if (call.tool === "stratum_gate_resolve" && response.status !== "error" && !this.manualSkip) {
      const name = this.flowNames.get(callFlowId);
      if (name !== undefined)
        this.coverage.gateOutcomes.add(`${stepKey(name, str(args.step_id))}/${str(args.outcome)}`);
    }
    const cause = this.causeOf(ex, callFlowId);
    if (call.tool === "stratum_step_done" || call.tool === "stratum_parallel_done")
      this.stepDone(ex, callFlowId, index);
    if (call.tool === "stratum_iteration_report") this.iterationReport(ex, callFlowId, index);
    if (call.tool === "stratum_step_done" || call.tool === "stratum_iteration_report") {
      const name = this.flowNames.get(callFlowId);
      if (name !== undefined) this.cache.noteReported(name, str(args.step_id), args.result);
    }
    this.skipIfRaised(ex, index);
    await this.payload(response, callFlowId, cause, index);
    if (this.properties !== null) for (const b of this.properties.observe(ex, index)) this.breach(b);
  }

  /** Starts checking the root flow's properties, if the spec states any. */
  private watchProperties(rootId: string, flowName: string, input: unknown): void {
    const flow = this.spec.flows.get(flowName);
    const properties = propertiesOf(this.spec, flowName);
    if (flow === undefined || properties.length === 0 || rootId === "") return;
    this.properties = new PropertyMonitor(flow, properties, rootId, input);
  }

  private breach(b: PropertyBreach): void {
    const p = b.property;
    this.add({
      code: FUZZ_PROPERTY_VIOLATED.code,
      flow: p.flow,
      step: null,
      anchor: { kind: "property", name: p.name },
      message: FUZZ_PROPERTY_VIOLATED.message(p.name, p.kind, p.flow, b.what),
      call: b.call,
      ...(b.cut === null ? {} : { cut: b.cut }),
    });
  }

  /** The real id of the flow a call addressed (plan: the flow it created). */
  private realFlowId(ex: Exchange): string {
    // A plan's response names the flow it created (execute_flow: as parent_flow_id); any other
    // call names its flow in its arguments.
    if (ex.call.tool === "stratum_plan") return str(ex.response.flow_id) || str(ex.response.parent_flow_id);
    return this.session.realId(str(ex.call.arguments.flow_id));
  }

  private causeOf(ex: Exchange, flowId: string): Cause | null {
    const { call, response } = ex;
    const step = str(call.arguments.step_id);
    if (call.tool === "stratum_gate_resolve" && response.status !== "error") {
      return { step, field: `on_${str(call.arguments.outcome)}` };
    }
    if (call.tool === "stratum_step_done" || call.tool === "stratum_parallel_done") {
      if (response.routed_from === step) return { step, field: "on_fail" };
      const ir = this.flowOf(flowId)?.stepById.get(step);
      if (ir?.next != null && !isRetryOrFailure(response, step)) return { step, field: "next" };
    }
    return null;
  }

  private async payload(
    response: Plain,
    callFlowId: string,
    cause: Cause | null,
    index: number,
  ): Promise<void> {
    const status = str(response.status);
    if (DISPATCH_STATUSES.has(status)) {
      const flowId = str(response.flow_id);
      await this.dispatched(
        flowId,
        str(response.step_id),
        flowId === callFlowId ? cause : null,
        response,
        index,
      );
    } else if (status === "execute_flow") {
      const parent = str(response.parent_flow_id);
      const childId = str(response.child_flow_id);
      this.flowNames.set(childId, str(response.child_flow_name));
      await this.dispatched(
        parent,
        str(response.parent_step_id),
        parent === callFlowId ? cause : null,
        response,
        index,
      );
      const child = obj(response.child_step);
      if (child !== null) await this.payload(child, childId, null, index);
    } else if (status === "complete") {
      this.completed(response, index);
    } else if (status === "error") {
      this.failed(response, callFlowId, index);
    }
  }

  private async dispatched(
    flowId: string,
    stepId: string,
    cause: Cause | null,
    response: Plain,
    index: number,
  ) {
    const flow = this.flowOf(flowId);
    const step = flow?.stepById.get(stepId);
    if (flow === undefined || step === undefined) return;
    // A step reached only because a step was skipped by hand is not reached by the spec's logic.
    if (!this.manualSkip) this.coverage.dispatched.add(stepKey(flow.name, stepId));
    let counts = this.visits.get(flowId);
    if (counts === undefined) {
      counts = new Map();
      this.visits.set(flowId, counts);
    }
    const visits = (counts.get(stepId) ?? 0) + 1;
    counts.set(stepId, visits);
    let history = this.history.get(flowId);
    if (history === undefined) {
      history = [];
      this.history.set(flowId, history);
    }
    history.push({ step: stepId, cause });
    this.revisit ??= revisitOf(flow, stepId, cause, history, visits, index);
    const bound = boundOf(flow, step);
    if (visits > 2 * bound + 2 && this.stopped === null) {
      const finding = unboundedLoop(flow, history, stepId, visits, index);
      if (finding !== null) this.add(finding);
      this.stopped = "loop";
    }
    if (str(response.status) === "execute_step") {
      const inputs = obj(response.inputs);
      if (inputs !== null && readsNullProducer(flow, step, inputs))
        await this.readsSkipped(flow, step, flowId, inputs, index);
      const served =
        inputs === null ? null : this.cache.servedInputs(flow, step, inputs, (s) => counts.has(s), index);
      if (served !== null) this.add(served);
    }
  }

  /** A `$.steps.X` input that resolved to null because X's skip_if skipped it. */
  private async readsSkipped(flow: FlowIR, step: StepIR, flowId: string, inputs: Plain, index: number) {
    let trace: Plain[] | null = null;
    for (const input of step.inputs) {
      if (input.ref?.scope !== "steps" || inputs[input.name] !== null) continue;
      const producer = input.ref.name.name;
      if (flow.stepById.get(producer)?.kind === "gate") continue; // a gate's output is always null
      trace ??= await this.trace(flowId);
      const last = [...trace].reverse().find((r) => r.step_id === producer);
      if (last?.type !== "skip" || last.skip_reason === MANUAL_SKIP_REASON) continue;
      this.add({
        code: FUZZ_INPUT_READS_SKIPPED.code,
        flow: flow.name,
        step: step.id,
        anchor: { kind: "input", name: input.name },
        message: FUZZ_INPUT_READS_SKIPPED.message(step.id, input.name, producer),
        related: [
          {
            flow: flow.name,
            step: producer,
            anchor: { kind: "field", key: "skip_if" },
            message: `'${producer}' is skipped by this skip_if`,
          },
        ],
        call: index,
      });
    }
  }

  /** Every record of a flow, oldest first (archived rounds, then the current round). */
  async trace(flowId: string): Promise<Plain[]> {
    const audit = await this.session.call("stratum_audit", { flow_id: flowId });
    const out: Plain[] = [];
    if (Array.isArray(audit.rounds)) {
      for (const round of audit.rounds) {
        const steps = obj(round)?.steps;
        if (Array.isArray(steps)) out.push(...steps.filter((r): r is Plain => obj(r) !== null));
      }
    }
    if (Array.isArray(audit.trace)) out.push(...audit.trace.filter((r): r is Plain => obj(r) !== null));
    return out;
  }

  private stepDone(ex: Exchange, flowId: string, index: number): void {
    const flow = this.flowOf(flowId);
    const stepId = str(ex.call.arguments.step_id);
    const step = flow?.stepById.get(stepId);
    if (flow === undefined || step === undefined) return;
    const response = ex.response;
    const kind = FUZZ_KINDS[step.kind];
    const reasons = this.reasonsOf(ex, flowId, stepId);
    const ensures = ensureOf(this.spec, step);
    // The members whose report did not count (quorum runs, race candidates): their own reasons.
    const members = kind.membersOf === null ? [] : kind.membersOf(ex, flowId, stepId, this.memberVerdicts);
    const key = stepKey(flow.name, stepId);
    const shapeFailed = reasons.some(isShape) || members.some((m) => m.verdict.status === "schema_failed");
    const outcomeError = response.status === "error" && response.error_type !== "retries_exhausted";
    // race_pending is no attempt (the race is not judged yet), and a debate's round is not judged
    // by the step's ensures (its synthesis is).
    const pending =
      response.status === "race_pending" || (kind.reportsRounds && ex.call.tool === "stratum_parallel_done");
    if (ensures.length > 0 && !shapeFailed && !outcomeError && !pending) {
      this.coverage.ensureTried.set(key, (this.coverage.ensureTried.get(key) ?? 0) + 1);
      // A parallel step whose only failures are require, merge or certificates passed its ensures.
      const aggregate = kind.aggregate;
      const ensuresHeld =
        !isRetryOrFailure(response, stepId) ||
        (aggregate !== null && reasons.length > 0 && reasons.every(aggregate.ownVerdict));
      if (ensuresHeld) this.coverage.ensurePassed.add(key);
    }
    this.guardrailsBlockAll(flow, step, reasons, index);
    // A parallel step's result is the aggregate, whose shape is always known (docs/reference/language.md §6.4).
    if (!this.shapes.hasShape(step) && kind.aggregate === null) return;
    const raised = [...reasons, ...members.flatMap((m) => m.verdict.reasons)];
    for (const v of raised) {
      if (v.kind !== "ensure_raised") continue;
      // no_file_conflicts says "no" by raising (docs/reference/language.md §10.9): a verdict, not a crash.
      if (v.error.answer) continue;
      const e = ensures[v.index];
      if (e === undefined) continue;
      this.add({
        code: FUZZ_ENSURE_RAISES.code,
        flow: flow.name,
        step: stepId,
        anchor: { kind: "ensure", index: v.index },
        message: withHint(
          FUZZ_ENSURE_RAISES.message(e.text, v.error.message),
          conversionHint(this.spec, step, v.index, v.error.type),
        ),
        call: index,
      });
    }
  }

  /** The typed reasons the call's events give for the result of a step (its step_finished events). */
  private reasonsOf(ex: Exchange, flowId: string, stepId: string): readonly Violation[] {
    const out: Violation[] = [];
    for (const e of ex.events ?? []) {
      if (e.type === "step_finished" && e.flow_id === flowId && e.step_id === stepId) out.push(...e.reasons);
    }
    return out;
  }

  /**
   * A guardrail the interpreter blocked this result by, that provably blocks every result the
   * step's contract allows (guardrail-proof.ts). Only for a result the agent reports itself: a
   * fan-out step's aggregate and a sub-flow's completion are other texts.
   */
  private guardrailsBlockAll(flow: FlowIR, step: StepIR, reasons: readonly Violation[], index: number): void {
    const kind = FUZZ_KINDS[step.kind];
    if (step.flow !== null || kind.fanOut !== null || kind.aggregate !== null || kind.reportsRounds) return;
    for (const v of reasons) {
      if (v.kind !== "guardrail") continue;
      const proof = blocksEveryResult(v.pattern, this.shapes.contractOf(step));
      if (proof === null) continue;
      this.add({
        code: FUZZ_GUARDRAIL_BLOCKS_ALL.code,
        flow: flow.name,
        step: step.id,
        anchor: step.function === null ? { kind: "field", key: "guardrails" } : { kind: "step" },
        message: FUZZ_GUARDRAIL_BLOCKS_ALL.message(step.id, v.pattern, proof.held, proof.field),
        call: index,
      });
    }
  }

  /** The events of the exchange that report an expression failing (skip_if, exit_criterion, accumulate). */
  private failedExpressions(ex: Exchange): Extract<FlowEvent, { type: "expression_failed" }>[] {
    const out: Extract<FlowEvent, { type: "expression_failed" }>[] = [];
    for (const e of ex.events ?? []) if (e.type === "expression_failed") out.push(e);
    return out;
  }

  private iterationReport(ex: Exchange, flowId: string, index: number): void {
    const flow = this.flowOf(flowId);
    const stepId = str(ex.call.arguments.step_id);
    const step = flow?.stepById.get(stepId);
    if (flow === undefined || step === undefined) return;
    const response = ex.response;
    const key = stepKey(flow.name, stepId);
    if (step.exitCriterion !== null && response.status !== "error") {
      this.coverage.exitTried.set(key, (this.coverage.exitTried.get(key) ?? 0) + 1);
      if (response.exit_criterion_met === true) this.coverage.exitMet.add(key);
    }
    if (!this.shapes.hasShape(step)) return;
    for (const e of this.failedExpressions(ex)) {
      if (e.flow_id !== flowId || e.step_id !== stepId) continue;
      const rule =
        e.field === "exit_criterion"
          ? FUZZ_EXIT_CRITERION_RAISES
          : e.field === "accumulate"
            ? FUZZ_ACCUMULATE_FAILS
            : null;
      if (rule === null) continue;
      this.add({
        code: rule.code,
        flow: flow.name,
        step: stepId,
        anchor: { kind: "field", key: e.field },
        message: rule.message(stepId, errorText(e.error, e.text)),
        call: index,
      });
    }
  }

  /** skip_if run-time errors (the step was not skipped; docs/reference/runtime.md §3.1). */
  private skipIfRaised(ex: Exchange, index: number): void {
    for (const e of this.failedExpressions(ex)) {
      if (e.field !== "skip_if" || e.error === null) continue;
      const flow = this.spec.flows.get(e.flow_name);
      if (flow?.stepById.get(e.step_id)?.skipIf == null) continue;
      this.add({
        code: FUZZ_SKIP_IF_RAISES.code,
        flow: flow.name,
        step: e.step_id,
        anchor: { kind: "field", key: "skip_if" },
        message: FUZZ_SKIP_IF_RAISES.message(e.step_id, e.error.message),
        call: index,
      });
    }
  }

  private completed(response: Plain, index: number): void {
    const flow = this.flowOf(str(response.flow_id));
    if (flow !== undefined && !this.manualSkip) this.coverage.completed.add(flow.name);
    if (flow === undefined || flow.output === "") return;
    const contract = this.spec.contracts.get(flow.output);
    if (contract === undefined) return;
    const violations = contractViolations(fromJsonValue(response.output ?? null), contract, this.spec);
    const first = violations[0];
    if (first === undefined || first.kind !== "contract") return;
    this.add({
      code: FUZZ_FLOW_OUTPUT.code,
      flow: flow.name,
      step: null,
      anchor: { kind: "flow-output" },
      message: FUZZ_FLOW_OUTPUT.message(flow.name, flow.output, first.detail),
      call: index,
    });
  }

  private failed(response: Plain, callFlowId: string, index: number): void {
    const type = str(response.error_type);
    if (type === "retries_exhausted" || type === "max_rounds_exceeded") return;
    if (type === "internal_error") {
      const flow = this.flowOf(callFlowId);
      this.add({
        code: FUZZ_INTERNAL.code,
        flow: flow?.name ?? "",
        step: null,
        anchor: { kind: "step" },
        message: FUZZ_INTERNAL.message(this.session.exchanges[index]?.call.tool ?? "a call"),
        call: index,
      });
      this.stopped = "internal";
      return;
    }
    // The agent's task list refused at dispatch: the driver reports a well-formed one instead.
    const exchange = this.session.exchanges[index];
    if (exchange !== undefined && isRefusedTaskList(this.flowOf(callFlowId), exchange.call, response)) return;
    if (typeof response.source === "string" && typeof response.step_id === "string") {
      // A parallel step's `source` that cannot be resolved (decision B7): like an input.
      const flowName = str(response.flow_name) || (this.flowNames.get(callFlowId) ?? "");
      this.add({
        code: FUZZ_INPUT_UNRESOLVED.code,
        flow: flowName,
        step: response.step_id,
        anchor: { kind: "field", key: "source" },
        message: FUZZ_INPUT_UNRESOLVED.message(response.step_id, "source", str(response.message)),
        call: index,
      });
    } else if (typeof response.input === "string" && typeof response.step_id === "string") {
      const flowName = str(response.flow_name) || (this.flowNames.get(callFlowId) ?? "");
      this.add({
        code: FUZZ_INPUT_UNRESOLVED.code,
        flow: flowName,
        step: response.step_id,
        anchor: { kind: "input", name: response.input },
        message: FUZZ_INPUT_UNRESOLVED.message(response.step_id, response.input, str(response.message)),
        call: index,
      });
    }
    this.stopped = "stuck";
  }

  /**
   * The answer to a reported result of a step the agent aimed at (`pass`: a result meant to pass
   * every check): whether the interpreter accepted it, and if an aimed-at pass was rejected, the
   * interpreter's own reason. A run whose aimed-at pass was rejected did not explore the path it
   * meant to (`unfaithful`): its verdicts cannot count as proven.
   */
  judged(flowId: string, stepId: string, aim: "pass" | "other", response: Plain): void {
    const flow = this.flowOf(flowId);
    if (flow === undefined || response.status === "race_pending") return;
    const key = stepKey(flow.name, stepId);
    if (response.status === "budget_exhausted") {
      // The budget ran out on this report (its usage reached a cap, docs/reference/runtime.md §11.4),
      // whether the result passed or not: the attempt's own event says which.
      if (this.lastOutcome(flowId, stepId) === "accepted" && !this.manualSkip)
        this.coverage.accepted.add(key);
      return;
    }
    const accepted = !isRetryOrFailure(response, stepId);
    if (accepted) {
      if (!this.manualSkip) this.coverage.accepted.add(key);
      return;
    }
    const exhausted =
      response.routed_from === stepId ||
      (response.status === "error" &&
        response.error_type === "retries_exhausted" &&
        response.step_id === stepId);
    if (exhausted && !this.manualSkip) this.coverage.exhausted.add(key);
    if (aim !== "pass") return;
    this.unfaithful = true;
    if (!this.coverage.rejectedAim.has(key)) this.coverage.rejectedAim.set(key, rejectionOf(response));
  }

  /** The outcome of the step's attempt the last call ended, from its events (null: none ended). */
  private lastOutcome(flowId: string, stepId: string): string | null {
    const last = this.session.exchanges[this.session.exchanges.length - 1];
    for (const e of last?.events ?? []) {
      if (e.type === "step_finished" && e.flow_id === flowId && e.step_id === stepId) return e.outcome;
    }
    return null;
  }

  /** How the run ended, and at which step of the root flow (the current one when it stopped). */
  ended(end: RunEnd, flowName: string, stepId: string | null): void {
    // A run the fuzzer stopped before its flow ended does not satisfy what had yet to happen.
    if (end === "truncated" || end === "loop") this.cutRun(end);
    if (this.manualSkip) return;
    let ends = this.coverage.endings.get(flowName);
    if (ends === undefined) {
      ends = new Map();
      this.coverage.endings.set(flowName, ends);
    }
    const key = `${end}|${stepId ?? ""}`;
    ends.set(key, (ends.get(key) ?? 0) + 1);
  }

  /**
   * The run is cut here, after its last call: at the call limit, or where the fuzzer stopped a loop.
   * The properties its flow has yet to satisfy are broken by it (a replay of a cut run's witness
   * cuts it at the same call).
   */
  cutRun(how: "truncated" | "loop"): void {
    const last = this.session.calls - 1;
    const why =
      how === "truncated"
        ? `at the fuzzer's call limit (${last + 1} calls)`
        : "where the fuzzer stopped a loop";
    for (const b of this.properties?.cut(last, why, how) ?? []) this.breach(b);
  }

  /**
   * At the end of a run: gates a policy approved count as dispatched (they ran, automatically);
   * steps their own skip_if skipped are noted; properties left unjudged are noted.
   */
  async finish(): Promise<void> {
    for (const name of this.properties?.undecided ?? []) this.coverage.propertiesUndecided.add(name);
    for (const [flowId, name] of this.flowNames) {
      const trace = await this.trace(flowId);
      const flow = this.spec.flows.get(name);
      if (flow !== undefined) {
        const counts = this.visits.get(flowId);
        const last = this.session.exchanges.length - 1;
        for (const f of this.cache.records(flow, trace, (s) => counts?.has(s) === true, last)) this.add(f);
      }
      if (this.manualSkip) continue; // coverage counts only what the spec's own logic reached
      for (const r of trace) {
        if (r.type === "policy" && (r.effective_policy === "flag" || r.effective_policy === "skip")) {
          this.coverage.dispatched.add(stepKey(name, str(r.step_id)));
          this.coverage.gateOutcomes.add(`${stepKey(name, str(r.step_id))}/approve`);
        }
        if (r.type === "skip" && r.skip_reason !== MANUAL_SKIP_REASON) {
          this.coverage.skipped.add(stepKey(name, str(r.step_id)));
        }
      }
    }
  }
}
