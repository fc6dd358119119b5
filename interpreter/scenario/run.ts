// Runs one scenario test (docs/guides/testing-a-spec.md) through the interpreter's public
// API: the plan with the test's input, then each script entry answers the next dispatch, then the
// expectations are compared with how the run stands. The spec's file builtins see the test's
// `files:` only. A sub-flow's steps are scripted like the
// parent's; the child's completion is reported to the parent step as an agent would. The first
// fact that differs fails the test, located at the entry or expectation that states it.
import {
  type CheckedSpec,
  type FlowIR,
  nodeValue,
  type ScenarioTest,
  type ScriptEntry,
  STEP_KIND_TABLE,
  type StepIR,
  type StepStatus,
} from "../../checker/index";
import { makeDict } from "../../stdlib/values/dict";
import { fromJsonValue } from "../../stdlib/values/json";
import { repr } from "../../stdlib/values/repr";
import type { PyValue } from "../../stdlib/values/value";
import type { StratumApi } from "../api";
import { wireToPlain } from "../wire/encode";
import type { Response } from "../wire/wire";
import { firstMismatch } from "./compare";
import { scenarioEngine } from "./engine";
import { scenarioFiles } from "./files";
import type { RunStatus, TestFailure, TestOutcome } from "./outcome";
import { stepStatuses } from "./statuses";

export interface ScenarioRun {
  readonly specText: string;
  readonly spec: CheckedSpec;
  readonly flow: string;
  readonly test: ScenarioTest;
}

type Plain = Record<string, unknown>;

interface Frame {
  readonly flowId: string;
  readonly flow: FlowIR;
  readonly parent: { readonly flowId: string; readonly stepId: string } | null;
}

/** A failure that ends the run at once. */
class Stop {
  constructor(readonly failure: TestFailure) {}
}

const RETRY_STATUSES: ReadonlySet<string> = new Set(["ensure_failed", "schema_failed", "guardrail_blocked"]);

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function plain(r: Response): Plain {
  return wireToPlain(r) as Plain;
}

/** The interpreter's reasons, for a message: its violations, else its message. */
function reasons(r: Plain): string {
  const v = r.violations;
  if (Array.isArray(v) && v.length > 0) return v.map(String).join("; ");
  const m = r.message ?? r.error;
  return typeof m === "string" ? m : `status ${str(r.status)}`;
}

export async function runScenarioTest(run: ScenarioRun): Promise<TestOutcome> {
  return new Runner(run).run();
}

class Runner {
  private readonly api: StratumApi;
  private readonly frames: Frame[] = [];
  private readonly failed = new Set<string>();
  private readonly loops = new Set<string>();
  private calls = 0;
  private rootId = "";

  constructor(private readonly setup: ScenarioRun) {
    const files = scenarioFiles(setup.test.files);
    this.api = scenarioEngine(files.access, files.cwd);
  }

  private async call(f: () => Promise<Response>): Promise<Plain> {
    this.calls++;
    return plain(await f());
  }

  async run(): Promise<TestOutcome> {
    const { test } = this.setup;
    let failure: TestFailure | null = null;
    let response: Plain | null = null;
    try {
      response = await this.plan();
      for (const entry of test.script) {
        response = await this.settle(response);
        response = await this.answer(entry, response);
      }
      response = await this.settle(response);
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      failure = e.failure;
    }
    const status = response === null ? "failed" : this.statusOf(response);
    const steps = await this.steps(response);
    if (failure === null && response !== null) failure = this.compare(response, status, steps);
    return { name: test.name.value, failure, status, steps, calls: this.calls };
  }

  private async plan(): Promise<Plain> {
    const { test, specText, flow, spec } = this.setup;
    const inputs = test.input === null ? makeDict([]) : nodeValue(test.input);
    const r = await this.call(() => this.api.plan({ spec: specText, flow, inputs }));
    if (str(r.status) === "error") {
      throw new Stop({
        message: `the interpreter refused to start the flow: ${reasons(r)}`,
        range: test.input?.range ?? test.name.range,
      });
    }
    this.rootId = str(r.flow_id) || str(r.parent_flow_id);
    this.frames.push({ flowId: this.rootId, flow: spec.flows.get(flow)!, parent: null });
    return r;
  }

  private get top(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  /** Follows sub-flows: into a child's first dispatch, and a finished child back to its parent step. */
  private async settle(response: Plain): Promise<Plain> {
    let r = response;
    for (;;) {
      const status = str(r.status);
      if (status === "execute_flow") {
        const child = this.setup.spec.flows.get(str(r.child_flow_name));
        const childId = str(r.child_flow_id);
        if (child === undefined) return r;
        this.frames.push({
          flowId: childId,
          flow: child,
          parent: { flowId: str(r.parent_flow_id), stepId: str(r.parent_step_id) },
        });
        const first = r.child_step;
        r =
          first !== null && typeof first === "object" && !Array.isArray(first)
            ? (first as Plain)
            : await this.call(() => this.api.resume({ flow_id: childId }));
        continue;
      }
      const top = this.top;
      const finished =
        status === "complete" ||
        status === "killed" ||
        (status === "error" && str(r.error_type) === "retries_exhausted");
      if (finished && top.parent !== null && (str(r.flow_id) === top.flowId || str(r.flow_id) === "")) {
        this.frames.pop();
        const parent = top.parent;
        // The child's completion payload is the agent's report of the parent step.
        const result = fromJsonValue(r);
        r = await this.call(() =>
          this.api.stepDone({ flow_id: parent.flowId, step_id: parent.stepId, result }),
        );
        this.judged(parent.stepId, parent.flowId, r);
        continue;
      }
      return r;
    }
  }

  /** The step a response dispatches, in the flow of the top frame; null when it dispatches nothing. */
  private dispatched(r: Plain): StepIR | null {
    const status = str(r.status);
    if (status === "complete" || status === "killed" || status === "error") return null;
    const id = str(r.step_id);
    return id === "" ? null : (this.top.flow.stepById.get(id) ?? null);
  }

  private describeState(r: Plain): string {
    const step = this.dispatched(r);
    if (step !== null) return `the interpreter dispatched ${describeStep(step)}`;
    const status = str(r.status);
    if (status === "error") return `the flow stopped with ${str(r.error_type)}: ${reasons(r)}`;
    return `the flow is ${status === "complete" ? "complete" : status}`;
  }

  private async answer(entry: ScriptEntry, r: Plain): Promise<Plain> {
    const step = this.dispatched(r);
    const flowId = this.top.flowId;
    const wanted = entry.step.value;
    const mismatch = (why: string): Stop =>
      new Stop({
        message: `the script answers ${describeEntry(entry)}, but ${why}`,
        range: entry.range,
        expected: describeEntry(entry),
        actual: this.describeState(r),
      });
    // An iteration entry answers the step's dispatch without ending it; so does a skip of any step.
    if (step === null) throw mismatch(this.describeState(r));
    if (step.id !== wanted) throw mismatch(this.describeState(r));
    const isGate = step.kind === "gate";
    const parallel = STEP_KIND_TABLE[step.kind].parallel;
    switch (entry.kind) {
      case "gate": {
        if (!isGate) throw mismatch(`${describeStep(step)} is not a gate`);
        const res = await this.call(() =>
          this.api.gateResolve({
            flow_id: flowId,
            step_id: step.id,
            outcome: entry.outcome.value,
            rationale: entry.note,
            resolved_by: "human",
          }),
        );
        if (str(res.status) === "error") {
          throw new Stop({
            message: `the interpreter refused the gate decision: ${reasons(res)}`,
            range: entry.range,
          });
        }
        return res;
      }
      case "skip": {
        const res = await this.call(() =>
          this.api.skipStep({ flow_id: flowId, step_id: step.id, reason: entry.reason }),
        );
        if (str(res.status) === "error") {
          throw new Stop({
            message: `the interpreter refused to skip step '${step.id}': ${reasons(res)}`,
            range: entry.range,
          });
        }
        return res;
      }
      case "iteration":
        await this.iterate(entry, flowId, step);
        return r;
      case "parallel": {
        if (!parallel) throw mismatch(`${describeStep(step)} is not a parallel step`);
        const taskResults = entry.tasks.map((t) =>
          makeDict([
            ["task_id", t.id.value],
            ["result", t.result === null ? makeDict([]) : nodeValue(t.result)],
            ["status", t.status],
          ]),
        );
        const res = await this.call(() =>
          this.api.parallelDone({
            flow_id: flowId,
            step_id: step.id,
            task_results: taskResults,
            merge_status: entry.merge,
          }),
        );
        if (this.rejected(step.id, res)) {
          throw new Stop({
            message: `the interpreter refused the tasks of step '${step.id}': ${reasons(res)}`,
            range: entry.range,
          });
        }
        this.judged(step.id, flowId, res);
        return res;
      }
      case "step": {
        if (isGate) throw mismatch(`${describeStep(step)} is a gate`);
        if (parallel) throw mismatch(`${describeStep(step)} runs tasks in parallel`);
        const result: PyValue = entry.result === null ? makeDict([]) : nodeValue(entry.result);
        const res = await this.call(() => this.api.stepDone({ flow_id: flowId, step_id: step.id, result }));
        const refused = this.rejected(step.id, res);
        if (entry.fail === null && refused) {
          throw new Stop({
            message: `the interpreter refused the result of step '${step.id}': ${reasons(res)}`,
            range: entry.result?.range ?? entry.range,
          });
        }
        if (entry.fail !== null && !refused) {
          throw new Stop({
            message: `the script expects the interpreter to refuse this attempt of step '${step.id}' (${entry.fail.value}), but it accepted the result ${repr(result)}`,
            range: entry.fail.range,
          });
        }
        if (!refused || str(res.status) !== "error" || str(res.error_type) === "retries_exhausted") {
          this.judged(step.id, flowId, res);
          return res;
        }
        throw new Stop({ message: `the interpreter refused the call: ${reasons(res)}`, range: entry.range });
      }
    }
  }

  private async iterate(
    entry: Extract<ScriptEntry, { kind: "iteration" }>,
    flowId: string,
    step: StepIR,
  ): Promise<void> {
    const key = `${flowId}/${step.id}`;
    if (!this.loops.has(key)) {
      const started = await this.call(() => this.api.iterationStart({ flow_id: flowId, step_id: step.id }));
      if (str(started.status) !== "iteration_started") {
        throw new Stop({
          message: `the interpreter refused to start the loop of step '${step.id}': ${reasons(started)}`,
          range: entry.range,
        });
      }
      this.loops.add(key);
    }
    const res =
      entry.abort !== null
        ? await this.call(() =>
            this.api.iterationAbort({ flow_id: flowId, step_id: step.id, reason: entry.abort ?? "" }),
          )
        : await this.call(() =>
            this.api.iterationReport({
              flow_id: flowId,
              step_id: step.id,
              result: entry.report === null ? makeDict([]) : nodeValue(entry.report),
            }),
          );
    if (str(res.status) === "error") {
      throw new Stop({
        message: `the interpreter refused the iteration: ${reasons(res)}`,
        range: entry.range,
      });
    }
    if (str(res.status) !== "iteration_continue") this.loops.delete(key);
  }

  /** Whether the answer to a report of `stepId` refused it (a retry, an exhaustion, an on_fail route, an error). */
  private rejected(stepId: string, res: Plain): boolean {
    const status = str(res.status);
    if (RETRY_STATUSES.has(status) && str(res.step_id) === stepId) return true;
    if (status === "error") return true;
    return str(res.routed_from) === stepId;
  }

  /** Records whether a report of a root-flow step ended the step failed (exhausted or routed by on_fail). */
  private judged(stepId: string, flowId: string, res: Plain): void {
    if (flowId !== this.rootId) return;
    const exhausted = str(res.status) === "error" && str(res.error_type) === "retries_exhausted";
    if (exhausted || str(res.routed_from) === stepId) this.failed.add(stepId);
    else if (!(RETRY_STATUSES.has(str(res.status)) && str(res.step_id) === stepId))
      this.failed.delete(stepId);
  }

  private statusOf(r: Plain): RunStatus {
    const status = str(r.status);
    if (this.frames.length === 1 && (status === "complete" || status === "killed")) return status;
    if (status === "error") return "failed";
    return "waiting";
  }

  private async steps(r: Plain | null): Promise<readonly (readonly [string, StepStatus])[]> {
    if (this.rootId === "") return [];
    const audit = await this.call(() => this.api.audit({ flow_id: this.rootId }));
    const current = r !== null && this.frames.length === 1 ? this.dispatched(r) : null;
    const running = current?.id ?? (this.frames.length > 1 ? (this.frames[1]?.parent?.stepId ?? null) : null);
    return stepStatuses(this.frames[0]!.flow, audit.trace, this.failed, running);
  }

  private compare(
    r: Plain,
    status: RunStatus,
    steps: readonly (readonly [string, StepStatus])[],
  ): TestFailure | null {
    const expect = this.setup.test.expect;
    if (expect === null) return null;
    if (expect.status !== null && expect.status.value !== status) {
      return {
        message: `expect.status: expected ${expect.status.value}, got ${status} (${this.describeState(r)})`,
        range: expect.status.range,
        expected: expect.status.value,
        actual: status,
      };
    }
    if (expect.output !== null) {
      const output = str(r.status) === "complete" ? fromJsonValue(r.output) : undefined;
      const m = firstMismatch(expect.output, output, "output");
      if (m !== null) {
        return {
          message: `expect.${m.path}: expected ${m.expected}, got ${m.actual}`,
          range: m.range,
          expected: m.expected,
          actual: m.actual,
        };
      }
    }
    const byId = new Map(steps);
    for (const e of expect.steps) {
      const got = byId.get(e.step.value);
      if (got !== e.status.value) {
        return {
          message: `expect.steps.${e.step.value}: expected ${e.status.value}, got ${got ?? "no such step"}`,
          range: e.status.range,
          expected: e.status.value,
          actual: got ?? "no such step",
        };
      }
    }
    return null;
  }
}

function describeStep(step: StepIR): string {
  if (step.kind === "gate") return `gate '${step.id}'`;
  return STEP_KIND_TABLE[step.kind].parallel ? `parallel step '${step.id}'` : `step '${step.id}'`;
}

function describeEntry(entry: ScriptEntry): string {
  switch (entry.kind) {
    case "gate":
      return `gate '${entry.step.value}'`;
    case "skip":
      return `a skip of step '${entry.step.value}'`;
    case "iteration":
      return `an iteration of step '${entry.step.value}'`;
    case "parallel":
      return `parallel step '${entry.step.value}'`;
    case "step":
      return `step '${entry.step.value}'`;
  }
}
