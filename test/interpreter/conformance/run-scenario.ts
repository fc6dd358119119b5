// Runs one scenario against the engine (test/conformance/recorded/README.md §2.1) and checks the responses
// (test/conformance/recorded/README.md §2.2 normalisation, test/conformance/recorded/README.md §2.3 comparison). The plan comes first; every action then calls one tool,
// or is a test hook: `restart` (a new API instance over the same store) and `age_gate` (the wall
// clock moves on by `seconds`, which is what the gate timeout reads).
import type { StratumApi } from "../../../interpreter/api";
import { wireToPlain } from "../../../interpreter/wire/encode";
import type { Response } from "../../../interpreter/wire/wire";
import { PyDict } from "../../../stdlib/values/value";
import { firstDifference, formatDifference } from "./compare";
import { FlowIdNames, normaliseResponse } from "./normalise";
import type { Action, Scenario } from "./scenario";

/** What the runner needs of a harness: TestApi has it; the MCP end-to-end suite (test/mcp) gives its own. */
export interface ScenarioHarness {
  /** The API to call (read again after `restart`). */
  readonly api: StratumApi;
  /** A server restart: every in-memory flow is gone, the store stays. */
  restart(): unknown;
  /** The wall clock the gate timeouts read (`age_gate`). */
  readonly clock: { advanceWall(ms: number): void };
}

export interface ScenarioRun {
  /** Plain responses by reference index (0 = plan); undefined for hooks and calls that threw. */
  readonly responses: readonly unknown[];
  /** Indices of `restart` / `age_gate` actions: never compared. */
  readonly hooks: ReadonlySet<number>;
  /** Calls that threw instead of answering, and failed extra checks. */
  readonly problems: readonly string[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** root / child / child:N / last_plan / literal flow id (test/conformance/recorded/README.md §2.1, §5). */
class FlowSelector {
  root: string | undefined;
  /** The flow of the latest `plan` action. */
  lastPlan: string | undefined;
  private readonly children: string[] = [];
  private latestChild: string | undefined;

  observe(response: unknown): void {
    if (!isRecord(response)) return;
    const child = response.child_flow_id;
    if (typeof child !== "string") return;
    this.latestChild = child;
    if (!this.children.includes(child)) this.children.push(child);
  }

  select(flow: string | undefined): string {
    const which = flow ?? "root";
    if (which === "root") return this.required(this.root, "the root flow (the plan returned no flow id)");
    if (which === "last_plan") return this.required(this.lastPlan, "the flow of a further plan (none yet)");
    if (which === "child") return this.required(this.latestChild, "a child flow (none seen yet)");
    const m = /^child:([0-9]+)$/.exec(which);
    if (m) return this.required(this.children[Number(m[1])], `child flow #${m[1]}`);
    return which;
  }

  private required(id: string | undefined, what: string): string {
    if (id === undefined) throw new Error(`scenario selects ${what}`);
    return id;
  }
}

function need<T>(value: T | undefined, action: Action, key: string): T {
  if (value === undefined) throw new Error(`action '${action.op}' has no '${key}'`);
  return value;
}

function call(api: StratumApi, action: Action, flowId: () => string, scenario: Scenario): Promise<Response> {
  const spec = scenario.spec;
  const step_id = () => need(action.step_id, action, "step_id");
  switch (action.op) {
    case "step_done":
      return api.stepDone({ flow_id: flowId(), step_id: step_id(), result: action.result ?? null });
    case "gate_resolve":
      return api.gateResolve({
        flow_id: flowId(),
        step_id: step_id(),
        outcome: action.outcome ?? "approve",
        rationale: action.rationale ?? "",
        resolved_by: action.resolved_by ?? "human",
      });
    case "skip":
      return api.skipStep({ flow_id: flowId(), step_id: step_id(), reason: action.reason ?? "" });
    case "check_timeouts":
      return api.checkTimeouts({ flow_id: flowId() });
    case "audit":
      return api.audit({ flow_id: flowId() });
    case "resume":
      return api.resume({ flow_id: flowId() });
    case "commit":
      return api.commit({ flow_id: flowId(), label: need(action.label, action, "label") });
    case "revert":
      return api.revert({ flow_id: flowId(), label: need(action.label, action, "label") });
    case "iteration_start":
      return api.iterationStart({ flow_id: flowId(), step_id: step_id() });
    case "iteration_report":
      return api.iterationReport({ flow_id: flowId(), step_id: step_id(), result: action.result ?? null });
    case "iteration_abort":
      return api.iterationAbort({ flow_id: flowId(), step_id: step_id(), reason: action.reason ?? "" });
    case "validate":
      return api.validate({ spec: action.spec ?? spec });
    case "list_workflows":
      return api.listWorkflows(action.dir === undefined ? {} : { workflows_dir: action.dir });
    case "compile_speckit":
      return api.compileSpeckit({
        tasks_dir: need(action.tasks_dir, action, "tasks_dir"),
        flow_name: action.flow_name ?? "tasks",
      });
    case "parallel_done":
      return api.parallelDone({
        flow_id: flowId(),
        step_id: step_id(),
        task_results: need(action.task_results, action, "task_results"),
        merge_status: need(action.merge_status, action, "merge_status"),
      });
    case "plan":
      return api.plan({
        spec: action.spec ?? spec,
        flow: scenario.flow,
        inputs: action.inputs ?? new PyDict(),
      });
    case "judge":
      throw new Error("stratum_judge is not implemented");
    case "restart":
    case "age_gate":
      throw new Error(`'${action.op}' is a test hook, not a tool call`);
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** A compiled spec must itself be valid (README D3 note on compile_speckit). */
async function checkCompiledYaml(api: StratumApi, index: number, response: unknown, problems: string[]) {
  if (!isRecord(response) || response.status !== "ok" || typeof response.yaml !== "string") return;
  const verdict = wireToPlain(await api.validate({ spec: response.yaml }));
  if (!isRecord(verdict) || verdict.valid !== true) {
    problems.push(
      `#${index} compile_speckit: the generated yaml does not validate: ${JSON.stringify(verdict)}`,
    );
  }
}

export async function runScenario(scenario: Scenario, harness: ScenarioHarness): Promise<ScenarioRun> {
  const responses: unknown[] = [];
  const hooks = new Set<number>();
  const problems: string[] = [];
  const flows = new FlowSelector();

  const plan = wireToPlain(
    await harness.api.plan({ spec: scenario.spec, flow: scenario.flow, inputs: scenario.inputs }),
  );
  responses.push(plan);
  if (isRecord(plan)) {
    const root = typeof plan.flow_id === "string" ? plan.flow_id : plan.parent_flow_id;
    if (typeof root === "string") flows.root = root;
  }
  flows.observe(plan);

  for (const [k, action] of scenario.actions.entries()) {
    const index = k + 1;
    if (action.op === "restart") {
      harness.restart();
      hooks.add(index);
      responses.push(undefined);
      continue;
    }
    if (action.op === "age_gate") {
      harness.clock.advanceWall(need(action.seconds, action, "seconds") * 1000);
      hooks.add(index);
      responses.push(undefined);
      continue;
    }
    try {
      const response = wireToPlain(
        await call(harness.api, action, () => flows.select(action.flow), scenario),
      );
      responses.push(response);
      flows.observe(response);
      if (action.op === "plan" && isRecord(response) && typeof response.flow_id === "string") {
        flows.lastPlan = response.flow_id;
      }
      if (action.op === "compile_speckit") await checkCompiledYaml(harness.api, index, response, problems);
    } catch (error) {
      responses.push(undefined);
      problems.push(`#${index} ${action.op} threw: ${describeError(error)}`);
    }
  }
  return { responses, hooks, problems };
}

/** Every failure of the run against the recorded responses, one readable text each. */
export function scenarioFailures(scenario: Scenario, run: ScenarioRun, cwd: string): string[] {
  const failures = [...run.problems];
  const divergenceOf = (i: number) => scenario.expect_divergences.find((d) => d.ops.includes(i));
  const opOf = (i: number) => scenario.reference[i]?.op ?? "?";

  // What each index is checked against: the recorded response, a divergence subset, or nothing.
  const targets = scenario.reference.map((entry, i): { expected: unknown } | null => {
    if (run.hooks.has(i) || run.responses[i] === undefined) return null;
    const divergence = divergenceOf(i);
    if (divergence === undefined) return { expected: entry.response };
    const subset = divergence.expect?.[String(i)];
    return subset === undefined ? null : { expected: subset };
  });

  const normalised = run.responses.map((r) => (r === undefined ? undefined : normaliseResponse(r, cwd)));
  const names = new FlowIdNames();
  targets.forEach((t, i) => {
    if (t) names.learn(t.expected, normalised[i]);
  });
  const renamed = normalised.map((r) => (r === undefined ? undefined : names.rename(r)));

  targets.forEach((t, i) => {
    if (!t) return;
    const divergence = divergenceOf(i);
    const d = firstDifference(t.expected, renamed[i], { yamlKeys: opOf(i) === "compile_speckit" });
    if (d) {
      const against = divergence ? `expect of ${divergence.id}` : "reference";
      failures.push(
        `#${i} ${opOf(i)} (vs ${against}) ${formatDifference(d)}\n    response: ${JSON.stringify(renamed[i], (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x)).slice(0, 1500)}`,
      );
    }
  });
  for (const c of names.conflicts) failures.push(`flow ids are not renamed one-to-one: ${c}`);
  return failures;
}
