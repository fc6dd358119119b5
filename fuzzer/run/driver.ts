// One run: the fuzzer plays the agent, the human and the caller against the real interpreter,
// asking a Decider at every choice, and stops when the root flow finishes, gets stuck, loops past
// its bounds or reaches the call limit. Every call goes through the Session (recorded as the MCP
// wire has it) and is shown to the Observer.
import type { FlowIR, StepIR } from "../../checker/index";
import type { PathSource } from "../../interpreter/index";
import type { PyDict, PyValue } from "../../stdlib/index";
import { dictGetStr, fromJsonValue } from "../../stdlib/index";
import type { Goal, ScoreMove, Solver } from "../solver";
import { ensureOf, type FuzzTarget } from "../target";
import type { Shapes } from "../values/shapes";
import { reachesCachedStep } from "./cache";
import type { Decider, Option } from "./decider";
import { FAN_OUT_STATUS, FUZZ_KINDS, fansOut } from "./kinds/index";
import type { KindRun } from "./kinds/kind";
import type { Revisit } from "./loops";
import type { Coverage, Observation, RunEnd } from "./observation";
import { MANUAL_SKIP_REASON, Observer } from "./observer";
import { type Plain, Session, type ToolName, type Transport, type WireCall } from "./session";
import { isRefusedTaskList } from "./task-list-refusal";
import { chooseUsage, type Usage } from "./usage";

export interface RunSetup {
  readonly target: FuzzTarget;
  readonly shapes: Shapes;
  readonly solver: Solver;
  readonly transport: Transport;
  readonly flow: string;
  /** Tool calls per run (audits not counted). */
  readonly maxCalls: number;
}

export interface RunOutcome {
  readonly end: RunEnd;
  readonly input: Record<string, unknown>;
  readonly calls: readonly WireCall[];
  readonly observations: readonly Observation[];
  readonly coverage: Coverage;
  readonly manualSkip: boolean;
  /** An aimed-at pass was rejected: the run is not the path its decisions named. */
  readonly unfaithful: boolean;
  /** Where the run first came back to a state it was in, if it did. */
  readonly revisit: Revisit | null;
}

/** The pool of generated results of a step (random mode). */
export function poolKey(flow: string, step: string): string {
  return `${flow}/${step}`;
}

/**
 * A step's output as the agent reported it, converted for the solver only when it reads it: most
 * outputs are never read (only ensures that read `$.steps` paths do), and converting every report
 * was a copy of every result. Reported results are never changed after the report.
 */
class Reported {
  private converted: PyValue | undefined;

  constructor(private readonly plain: unknown) {}

  value(): PyValue {
    this.converted ??= fromJsonValue(this.plain);
    return this.converted;
  }
}

interface Frame {
  readonly flowId: string;
  readonly parent: { readonly flowId: string; readonly stepId: string } | null;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

const GATE_OPTIONS: readonly Option<"approve" | "revise" | "kill">[] = [
  { name: "approve", weight: 60, exhaustive: true },
  { name: "revise", weight: 30, exhaustive: true },
  { name: "kill", weight: 10, exhaustive: true },
];

const OVER_ROUNDS_OPTIONS: readonly Option<"approve" | "kill">[] = [
  { name: "approve", weight: 75, exhaustive: true },
  { name: "kill", weight: 25, exhaustive: true },
];

/** A second run of the same inputs, where the flow has a cached step; random mode only. */
const AGAIN_OPTIONS: readonly Option<"stop" | "again">[] = [
  { name: "stop", weight: 65, exhaustive: true },
  { name: "again", weight: 35, exhaustive: false },
];

type ResultKind = "pool" | "pass" | "fail" | "raise" | "repeat" | "violate" | "skip";

type ReportKind = "pool" | "exit" | "raise" | "repeat" | "abort" | ScoreMove;

// The option lists of a step's result and of a loop's report depend on a few facts of the step
// only: built once per combination, not at every call (the decision points of every run ask).
const RESULT_OPTIONS = new Map<number, readonly Option<ResultKind>[]>();

function resultOptions(
  hasEnsure: boolean,
  canViolate: boolean,
  skippable: boolean,
): readonly Option<ResultKind>[] {
  const key = (hasEnsure ? 1 : 0) | (canViolate ? 2 : 0) | (skippable ? 4 : 0);
  let options = RESULT_OPTIONS.get(key);
  if (options === undefined) {
    options = [
      { name: "pool", weight: 35, exhaustive: false },
      { name: "pass", weight: 45, exhaustive: true },
      { name: "fail", weight: hasEnsure ? 5 : 0, exhaustive: hasEnsure },
      // Data that makes an ensure raise, if some conforming result does (the hunt for FUZZ-ENSURE-RAISES).
      { name: "raise", weight: hasEnsure ? 8 : 0, exhaustive: false },
      { name: "repeat", weight: 8, exhaustive: false },
      { name: "violate", weight: canViolate ? 5 : 0, exhaustive: false },
      // The human skips by hand only where the spec itself declares the step skippable (skip_if).
      { name: "skip", weight: skippable ? 3 : 0, exhaustive: false },
    ];
    RESULT_OPTIONS.set(key, options);
  }
  return options;
}

const REPORT_OPTIONS = new Map<number, readonly Option<ReportKind>[]>();

function reportOptions(step: StepIR): readonly Option<ReportKind>[] {
  // A scored loop (score_expr): reports whose scores go up, down, stay or are no number, so the
  // best entry, its ties and the early stop on a plateau are reached; random mode only.
  const scored = step.scoreExpr === null ? 0 : 1;
  const exits = step.exitCriterion !== null;
  const raises = step.exitCriterion !== null || step.accumulate !== null;
  const key = scored | (exits ? 2 : 0) | (raises ? 4 : 0);
  let options = REPORT_OPTIONS.get(key);
  if (options === undefined) {
    options = [
      { name: "pool", weight: 45, exhaustive: true },
      { name: "up", weight: 15 * scored, exhaustive: false },
      { name: "down", weight: 10 * scored, exhaustive: false },
      { name: "same", weight: 10 * scored, exhaustive: false },
      { name: "none", weight: 4 * scored, exhaustive: false },
      { name: "exit", weight: exits ? 25 : 0, exhaustive: exits },
      { name: "raise", weight: raises ? 8 : 0, exhaustive: false },
      { name: "repeat", weight: 20, exhaustive: false },
      { name: "abort", weight: 5, exhaustive: true },
    ];
    REPORT_OPTIONS.set(key, options);
  }
  return options;
}

const LOOP_OPTIONS: readonly Option<"iterate" | "no-loop">[] = [
  { name: "iterate", weight: 85, exhaustive: true },
  { name: "no-loop", weight: 15, exhaustive: true },
];

export async function driveRun(setup: RunSetup, decider: Decider): Promise<RunOutcome> {
  return new Run(setup, decider).drive();
}

class Run {
  private readonly session: Session;
  private readonly observer: Observer;
  private readonly frames: Frame[] = [];
  private readonly inputs = new Map<string, PyDict>();
  private readonly outputs = new Map<string, Map<string, PyValue | Reported>>();
  private readonly lastResult = new Map<string, unknown>();
  private readonly draws = new Map<string, number>();
  private readonly lastGate = new Map<string, string>();
  /** Whether the run planned its flow a second time (once at most). */
  private replanned = false;
  /** The step of the last stratum_step_done (where a run that ran out of budget ended). */
  private lastReported: string | null = null;
  private readonly rootInput: Record<string, unknown>;
  /** What the kinds' plays (kinds/) may use of this run. */
  private readonly play: KindRun;

  constructor(
    private readonly setup: RunSetup,
    private readonly decider: Decider,
  ) {
    this.session = new Session(setup.transport);
    this.observer = new Observer(setup.target.spec, setup.shapes, this.session);
    this.rootInput = decider.inputs();
    const observer = this.observer;
    // Functions only, no getter: an object literal's getter is an accessor of its own, which V8
    // keeps in a hidden class in the old generation; the getter's scope (this whole run) then
    // survived every young-generation collection until a full one, and a long fuzz's heap grew by
    // each run in between.
    this.play = {
      spec: setup.target.spec,
      solver: setup.solver,
      literals: setup.target.literals.strings,
      decider,
      stopped: () => observer.stopped,
      call: (tool, args) => this.call(tool, args),
      result: (aim, flow, step, flowId) => this.result(aim, flow, step, flowId),
      stepDone: (flowId, stepId, result, repeatable, aim) =>
        this.stepDone(flowId, stepId, result, repeatable, aim),
      refused: (flowId, stepId, result, response) => this.refused(flowId, stepId, result, response),
      judged: (flowId, stepId, aim, response) => observer.judged(flowId, stepId, aim, response),
      setOutput: (flowId, stepId, value) => this.setOutput(flowId, stepId, value),
    };
  }

  private async call(tool: ToolName, args: Plain): Promise<Plain> {
    const response = await this.session.call(tool, args);
    await this.observer.observe(this.session.calls - 1);
    return response;
  }

  private flowOf(flowId: string): FlowIR | undefined {
    const name = this.observer.flowNames.get(flowId);
    return name === undefined ? undefined : this.setup.target.spec.flows.get(name);
  }

  /** Plans the root flow (again, for a second run of the same inputs: its cached steps hit). */
  private async plan(): Promise<Plain> {
    const previous = this.frames[0]?.flowId;
    const response = await this.call("stratum_plan", {
      spec: this.setup.target.text,
      flow: this.setup.flow,
      inputs: this.rootInput,
    });
    const rootId = str(response.flow_id) || str(response.parent_flow_id);
    this.frames.length = 0;
    this.frames.push({ flowId: rootId, parent: null });
    this.inputs.set(rootId, fromJsonValue(this.rootInput) as PyDict);
    // The steps the cache serves are never dispatched: what the agent aims at after them reads the
    // outputs the first run's agent got accepted for them (what the cache holds).
    const before = previous === undefined ? undefined : this.outputs.get(previous);
    if (before !== undefined) this.outputs.set(rootId, new Map(before));
    return response;
  }

  /** After the root flow completed: whether to plan it again with the same inputs (its cache warm). */
  private again(): boolean {
    if (this.replanned) return false;
    const spec = this.setup.target.spec;
    if (!reachesCachedStep(spec, spec.flows.get(this.setup.flow)!)) return false;
    this.replanned = this.decider.choose(AGAIN_OPTIONS) === "again";
    return this.replanned;
  }

  async drive(): Promise<RunOutcome> {
    this.setup.transport.newRun?.();
    let response = await this.plan();
    let end: RunEnd;
    for (;;) {
      if (this.observer.stopped !== null) {
        end = this.observer.stopped;
        break;
      }
      if (this.session.calls >= this.setup.maxCalls) {
        end = "truncated";
        break;
      }
      let next = await this.step(response);
      if (next === "complete" && this.again()) next = await this.plan();
      if (typeof next === "string") {
        end = next;
        break;
      }
      response = next;
      if (this.decider.endsAtRevisit && this.observer.revisit !== null) {
        end = "revisit";
        break;
      }
    }
    await this.observer.finish();
    const at = end === "budget_exhausted" ? this.lastReported : str(response.step_id) || null;
    this.observer.ended(end, this.setup.flow, at);
    return {
      end,
      input: this.rootInput,
      calls: this.session.recorded(),
      observations: this.observer.observations,
      coverage: this.observer.coverage,
      manualSkip: this.observer.manualSkip,
      unfaithful: this.observer.unfaithful,
      revisit: this.observer.revisit,
    };
  }

  /** Acts on one response: the next response, or how the run ended. */
  private async step(response: Plain): Promise<Plain | RunEnd> {
    const status = str(response.status);
    const top = this.frames[this.frames.length - 1]!;
    switch (status) {
      case FAN_OUT_STATUS:
        return this.fanOut(response);
      case "execute_step":
      case "ensure_failed":
      case "schema_failed":
      case "guardrail_blocked":
        // A parallel or member step's retry is its fan-out payload with the failure status.
        return fansOut(str(response.step_mode)) ? this.fanOut(response) : this.work(response);
      case "await_gate":
        return this.gate(response);
      case "execute_flow": {
        const childId = str(response.child_flow_id);
        this.frames.push({
          flowId: childId,
          parent: { flowId: str(response.parent_flow_id), stepId: str(response.parent_step_id) },
        });
        const child = response.child_step;
        if (child !== null && typeof child === "object" && !Array.isArray(child)) return child as Plain;
        return this.call("stratum_resume", { flow_id: childId });
      }
      // The budget ran out (the flow's or a sub-flow's own): the flow is stopped, nothing more runs.
      case "budget_exhausted":
        return "budget_exhausted";
      case "complete":
      case "killed": {
        if (str(response.flow_id) === top.flowId && top.parent !== null) return this.reportToParent(response);
        return status === "complete" ? "complete" : "killed";
      }
      case "error": {
        const type = str(response.error_type);
        if (type === "retries_exhausted") {
          // A child that exhausts: a cooperative agent reports the failure to the parent step.
          return top.parent !== null ? this.reportToParent(response) : "exhausted";
        }
        if (type === "max_rounds_exceeded") {
          const gate = this.lastGate.get(top.flowId) ?? "";
          const outcome = this.decider.choose(OVER_ROUNDS_OPTIONS);
          return this.resolve(top.flowId, gate, outcome);
        }
        return this.observer.stopped ?? "stuck";
      }
      default:
        return "stuck";
    }
  }

  private async reportToParent(response: Plain): Promise<Plain> {
    const frame = this.frames.pop()!;
    const parent = frame.parent!;
    // A completed child is the agent's best answer for the parent step; a failed one is not.
    const aim = str(response.status) === "complete" ? "pass" : "other";
    return this.stepDone(parent.flowId, parent.stepId, response, true, aim);
  }

  private paths(flowId: string): PathSource {
    return {
      input: (name) => {
        const inputs = this.inputs.get(flowId);
        return inputs === undefined ? undefined : dictGetStr(inputs, name);
      },
      stepOutput: (id) => {
        const out = this.outputs.get(flowId)?.get(id);
        return out instanceof Reported ? out.value() : out;
      },
    };
  }

  private setOutput(flowId: string, stepId: string, value: PyValue | Reported): void {
    let m = this.outputs.get(flowId);
    if (m === undefined) {
      m = new Map();
      this.outputs.set(flowId, m);
    }
    m.set(stepId, value);
  }

  /** The next generated result of a step: from the scenario's pool, else the solver's candidates. */
  private poolValue(flow: FlowIR, step: StepIR): unknown {
    const key = poolKey(flow.name, step.id);
    const n = this.draws.get(key) ?? 0;
    this.draws.set(key, n + 1);
    const drawn = this.decider.value(key, n);
    if (drawn !== undefined) return drawn;
    // The derived candidates come first in `conforming(step)`: below their count, `n` modulo the
    // length is `n` whatever the drawn ones are, so they are drawn only when a run gets past them.
    const solver = this.setup.solver;
    if (n < solver.derivedCount(step)) return solver.firstCandidates(step)[n]!.plain;
    const list = solver.conforming(step);
    return list.length === 0 ? {} : list[n % list.length]!.plain;
  }

  private async work(payload: Plain): Promise<Plain | RunEnd> {
    const flowId = str(payload.flow_id);
    const stepId = str(payload.step_id);
    const flow = this.flowOf(flowId);
    const step = flow?.stepById.get(stepId);
    if (flow === undefined || step === undefined) return "stuck";
    if (step.maxIterations !== null) {
      const loop = this.decider.choose(LOOP_OPTIONS);
      if (loop === "iterate") await this.iterate(flow, step, flowId);
      if (this.observer.stopped !== null) return this.observer.stopped;
    }
    const hasEnsure = ensureOf(this.setup.target.spec, step).length > 0;
    const remaining = typeof payload.retries_remaining === "number" ? payload.retries_remaining : 1;
    const kind = this.decider.choose(
      resultOptions(hasEnsure, this.setup.shapes.hasShape(step) && remaining >= 2, step.skipIf !== null),
    );
    if (kind === "skip") {
      const r = await this.call("stratum_skip_step", {
        flow_id: flowId,
        step_id: stepId,
        reason: MANUAL_SKIP_REASON,
      });
      if (r.status !== "error") this.setOutput(flowId, stepId, null);
      return r;
    }
    const result = this.result(kind, flow, step, flowId);
    const aim = kind === "pass" ? "pass" : "other";
    // A broken result is reported as it is, and never repeated: it must not become the last
    // attempt's (stored) result.
    const report = FUZZ_KINDS[step.kind].report;
    if (report !== null && kind !== "violate") return report(this.play, flow, step, flowId, result, aim);
    const usage = chooseUsage(this.setup.target.spec, flow, step, this.decider);
    return this.stepDone(flowId, stepId, result, kind !== "violate", aim, usage);
  }

  /** The consumer path of a step that fans out: the agent runs the tasks or members and reports them (kinds/). */
  private async fanOut(payload: Plain): Promise<Plain | RunEnd> {
    const flow = this.flowOf(str(payload.flow_id));
    const step = flow?.stepById.get(str(payload.step_id));
    if (flow === undefined || step === undefined) return "stuck";
    const fanOut = FUZZ_KINDS[step.kind].fanOut;
    return fanOut === null ? "stuck" : fanOut(this.play, payload, flow, step);
  }

  private result(kind: ResultKind, flow: FlowIR, step: StepIR, flowId: string): unknown {
    const solver = this.setup.solver;
    const key = `${flowId}/${step.id}`;
    switch (kind) {
      case "pass": {
        const n = this.draws.get(poolKey(flow.name, step.id)) ?? 0;
        return this.aimed(
          step,
          poolKey(flow.name, step.id),
          solver.passing(step, this.paths(flowId), n, this.parentCheck(flow, step, flowId)) ??
            this.poolValue(flow, step),
        );
      }
      case "fail":
        return solver.failing(step, this.paths(flowId)) ?? this.poolValue(flow, step);
      case "raise":
        return solver.raising(step, this.paths(flowId)) ?? this.poolValue(flow, step);
      case "repeat":
        return this.lastResult.has(key) ? this.lastResult.get(key) : this.poolValue(flow, step);
      case "violate":
        return this.violating(step, this.poolValue(flow, step));
      default:
        return this.poolValue(flow, step);
    }
  }

  /** `result` with the field a property probe aims at set, when the step still conforms with it. */
  private aimed(step: StepIR, pool: string, result: unknown): unknown {
    const aim = this.decider.aim?.(pool);
    if (aim === undefined || aim.path.length === 0) return result;
    const set = (v: unknown, path: readonly string[]): unknown => {
      const base: Plain = v !== null && typeof v === "object" && !Array.isArray(v) ? { ...(v as Plain) } : {};
      const [head, ...rest] = path;
      if (head === undefined) return aim.value;
      // The key is user text: defined, never assigned (`__proto__` stays a plain key).
      const value = rest.length === 0 ? aim.value : set(base[head], rest);
      Object.defineProperty(base, head, { value, enumerable: true, writable: true, configurable: true });
      return base;
    };
    const next = set(result, aim.path);
    return this.setup.solver.conforms(step, fromJsonValue(next)) ? next : result;
  }

  /**
   * For the last step of a child flow, whose result becomes the child's output: what the parent
   * step checks of that output (so a cooperative agent can satisfy the parent too).
   */
  private parentCheck(flow: FlowIR, step: StepIR, flowId: string): Goal | undefined {
    const frame = this.frames.find((f) => f.flowId === flowId);
    if (frame?.parent == null || flow.steps[flow.steps.length - 1] !== step) return undefined;
    const parentFlow = this.flowOf(frame.parent.flowId);
    const parentStep = parentFlow?.stepById.get(frame.parent.stepId);
    if (parentStep === undefined) return undefined;
    return this.setup.solver.parentAccepts(parentStep, this.paths(frame.parent.flowId));
  }

  /** A result that breaks the step's contract: a required field left out, or not an object at all. */
  private violating(step: StepIR, value: unknown): unknown {
    const contract = this.setup.shapes.contractOf(step);
    const required = contract === null ? undefined : [...contract.fields].find(([, d]) => d.required)?.[0];
    if (required !== undefined && value !== null && typeof value === "object" && !Array.isArray(value)) {
      return Object.fromEntries(Object.entries(value as Plain).filter(([k]) => k !== required));
    }
    return [];
  }

  /** Whether `response` is the dispatch refusing the task list this report of `stepId` holds. */
  private refused(flowId: string, stepId: string, result: unknown, response: Plain): boolean {
    // Only an error refuses (isRefusedTaskList): no call to build for every other answer.
    if (response.status !== "error") return false;
    const call: WireCall = { tool: "stratum_step_done", arguments: { step_id: stepId, result } };
    return isRefusedTaskList(this.flowOf(flowId), call, response);
  }

  private async stepDone(
    flowId: string,
    stepId: string,
    result: unknown,
    repeatable = true,
    aim: "pass" | "other" = "other",
    usage: Usage | null = null,
  ): Promise<Plain> {
    if (repeatable) this.lastResult.set(`${flowId}/${stepId}`, result);
    this.lastReported = stepId;
    const r = await this.call("stratum_step_done", {
      flow_id: flowId,
      step_id: stepId,
      result,
      ...(usage === null ? {} : { usage }),
    });
    // A task list the dispatch refused is re-reported by the driver: not the step's verdict.
    if (!this.refused(flowId, stepId, result, r)) this.observer.judged(flowId, stepId, aim, r);
    const retried =
      (r.status === "ensure_failed" || r.status === "schema_failed" || r.status === "guardrail_blocked") &&
      r.step_id === stepId;
    if (!retried && r.status !== "error") this.setOutput(flowId, stepId, new Reported(result));
    return r;
  }

  private async iterate(flow: FlowIR, step: StepIR, flowId: string): Promise<void> {
    const started = await this.call("stratum_iteration_start", { flow_id: flowId, step_id: step.id });
    if (started.status !== "iteration_started") return;
    let last: unknown;
    let lastScore: number | null = null;
    let dryStreak = 0;
    const max = (step.maxIterations ?? 1) + 1;
    for (let i = 0; i < max && this.observer.stopped === null; i++) {
      const kind = this.decider.choose(reportOptions(step));
      if (kind === "abort") {
        await this.call("stratum_iteration_abort", {
          flow_id: flowId,
          step_id: step.id,
          reason: "given up (stratumc fuzz)",
        });
        return;
      }
      const names = (): Map<string, PyValue> =>
        new Map<string, PyValue>([
          ["accumulator", []],
          ["accumulated_count", 0],
          ["new_count", null],
          ["dry_streak", dryStreak],
        ]);
      const solver = this.setup.solver;
      let result: unknown;
      if (kind === "repeat" && last !== undefined) result = last;
      else if (kind === "exit")
        result = solver.exiting(step, names(), this.paths(flowId)) ?? this.poolValue(flow, step);
      else if (kind === "raise")
        result = solver.raisingReport(step, names(), this.paths(flowId)) ?? this.poolValue(flow, step);
      else if (kind === "up" || kind === "down" || kind === "same" || kind === "none")
        result = solver.scored(step, kind, lastScore, this.paths(flowId)) ?? this.poolValue(flow, step);
      else result = this.poolValue(flow, step);
      last = result;
      lastScore = solver.scoreOfReport(step, result, this.paths(flowId));
      const r = await this.call("stratum_iteration_report", { flow_id: flowId, step_id: step.id, result });
      if (typeof r.dry_streak === "number") dryStreak = r.dry_streak;
      if (r.status !== "iteration_continue") return;
    }
  }

  private async gate(payload: Plain): Promise<Plain> {
    const flowId = str(payload.flow_id);
    const stepId = str(payload.step_id);
    this.lastGate.set(flowId, stepId);
    return this.resolve(flowId, stepId, this.decider.choose(GATE_OPTIONS));
  }

  private resolve(flowId: string, stepId: string, outcome: string): Promise<Plain> {
    return this.call("stratum_gate_resolve", {
      flow_id: flowId,
      step_id: stepId,
      outcome,
      rationale: `${outcome} (stratumc fuzz)`,
      resolved_by: "human",
    });
  }
}
