// The flow the team-store load harness (bench/pg-scale-bench.ts) drives, and how one agent drives
// it: a decompose step, a parallel step reported with stratum_parallel_done, a review with an
// `ensure` that fails once and is retried, a gate a second client resolves through the store, and a
// last step the agent finds by polling with stratum_resume. Every call is timed per tool; every
// error answer is kept with its tool and code, and the flow is then abandoned.
import { performance } from "node:perf_hooks";

/** One MCP session: a tool call's answer, parsed from its text content. */
export interface ToolCaller {
  call(tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const SCALE_SPEC = `version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
  Review:
    summary: {type: string}
    ok: {type: boolean}
functions:
  approval:
    mode: gate
    intent: "Approve the change for release"
flows:
  main:
    input:
      topic: {type: string}
    steps:
      - id: analyze
        type: decompose
        agent: claude
        intent: "Break the change into independent tasks"
        output_contract: TaskGraph
        ensure:
          - "no_file_conflicts(result.tasks)"
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: claude
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
      - id: review
        intent: "Run the tests and review the change"
        output_contract: Review
        retries: 2
        ensure:
          - "result.ok == True"
        depends_on: [execute]
      - id: approve
        function: approval
        depends_on: [review]
        on_approve: ship
        on_revise: review
        on_kill: ~
      - id: ship
        intent: "Release the change"
        depends_on: [approve]
`;

/** Tool calls one flow makes when nothing fails (the agent's and the reviewer's). */
export const CALLS_PER_FLOW = 8;

export interface CallError {
  readonly tool: string;
  readonly code: string;
  readonly message: string;
}

/**
 * An agent's think time: the pause before each of its calls, drawn from an exponential
 * distribution of mean `meanMs` (agents' model turns vary; memoryless pauses also spread the
 * flows' starts instead of firing every plan at once). 0 makes the harness closed-loop with no
 * pause, which measures saturation.
 */
export interface ThinkTime {
  readonly meanMs: number;
  /** Uniform in [0, 1); Math.random by default. */
  readonly random?: () => number;
  /** Waits `ms`; a timer by default. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** One exponential draw of mean `meanMs` from a uniform `u` in [0, 1). */
export function exponentialMs(meanMs: number, u: number): number {
  return meanMs * -Math.log1p(-u);
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Latencies per tool and the errors of one point of the curve. */
export class CallLog {
  readonly latencies = new Map<string, number[]>();
  readonly errors: CallError[] = [];
  calls = 0;
  /** Milliseconds of think time spent before the calls (to tell offered load from throughput). */
  thinkMs = 0;

  constructor(private readonly think: ThinkTime = { meanMs: 0 }) {}

  async timed(
    caller: ToolCaller,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    if (this.think.meanMs > 0) {
      const ms = exponentialMs(this.think.meanMs, (this.think.random ?? Math.random)());
      this.thinkMs += ms;
      await (this.think.sleep ?? timer)(ms);
    }
    const t0 = performance.now();
    let answer: Record<string, unknown>;
    try {
      answer = await caller.call(tool, args);
    } catch (e) {
      this.calls += 1;
      this.errors.push({ tool, code: "transport", message: describeError(e) });
      throw new FlowAbandoned();
    }
    const ms = performance.now() - t0;
    this.calls += 1;
    const samples = this.latencies.get(tool) ?? [];
    samples.push(ms);
    this.latencies.set(tool, samples);
    return answer;
  }

  /** The answer's status must be `expected`; otherwise the error is kept and the flow abandoned. */
  expect(tool: string, answer: Record<string, unknown>, expected: string): void {
    if (answer.status === expected) return;
    this.errors.push({
      tool,
      code: String(answer.error_type ?? answer.status),
      message: `expected '${expected}': ${String(answer.message ?? JSON.stringify(answer)).slice(0, 300)}`,
    });
    throw new FlowAbandoned();
  }
}

/** The message with its causes (fetch's own message says only "fetch failed"). */
function describeError(e: unknown): string {
  const parts: string[] = [];
  for (let c: unknown = e; c !== undefined && parts.length < 4; c = c instanceof Error ? c.cause : undefined)
    parts.push(c instanceof Error ? `${c.message}${"code" in c ? ` (${String(c.code)})` : ""}` : String(c));
  return parts.join(": ");
}

/** Thrown inside one flow's driver once its error is logged: the other flows go on. */
export class FlowAbandoned extends Error {}

const TASKS = [
  { id: "t1", desc: "update the parser", files_owned: ["src/parser.ts"] },
  { id: "t2", desc: "update the checker", files_owned: ["src/checker.ts"] },
];

function review(ok: boolean): Record<string, unknown> {
  return {
    summary: ok
      ? "All 312 tests pass; the change is covered by two new tests."
      : "Two tests fail in the checker suite.",
    ok,
  };
}

/** Brings a new flow to its gate through `agent`; its id. */
export async function toGate(agent: ToolCaller, log: CallLog, topic: string): Promise<string> {
  const plan = await log.timed(agent, "stratum_plan", { spec: SCALE_SPEC, flow: "main", inputs: { topic } });
  log.expect("stratum_plan", plan, "execute_step");
  const flowId = String(plan.flow_id);
  const step = async (step_id: string, result: unknown, expected: string) => {
    const answer = await log.timed(agent, "stratum_step_done", { flow_id: flowId, step_id, result });
    log.expect("stratum_step_done", answer, expected);
  };
  await step("analyze", { tasks: TASKS }, "parallel_dispatch");
  const parallel = await log.timed(agent, "stratum_parallel_done", {
    flow_id: flowId,
    step_id: "execute",
    task_results: TASKS.map((t) => ({ task_id: t.id, result: { done: true }, status: "complete" })),
    merge_status: "clean",
  });
  log.expect("stratum_parallel_done", parallel, "execute_step");
  await step("review", review(false), "ensure_failed");
  await step("review", review(true), "await_gate");
  return flowId;
}

export const GATE_RESOLUTION = {
  step_id: "approve",
  outcome: "approve",
  rationale: "Reviewed: tests pass",
  resolved_by: "human",
} as const;

/**
 * Drives one flow to completion: `agent` makes every call but the gate's resolution, which
 * `reviewer` (a client of another server when there is one) makes through the store. Resolves
 * whether it completed; a failure is in `log.errors`.
 */
export async function driveFlow(
  agent: ToolCaller,
  reviewer: ToolCaller,
  log: CallLog,
  topic: string,
): Promise<boolean> {
  try {
    const flowId = await toGate(agent, log, topic);
    const resolved = await log.timed(reviewer, "stratum_gate_resolve", {
      flow_id: flowId,
      ...GATE_RESOLUTION,
    });
    log.expect("stratum_gate_resolve", resolved, "execute_step");
    const polled = await log.timed(agent, "stratum_resume", { flow_id: flowId });
    log.expect("stratum_resume", polled, "execute_step");
    const shipped = await log.timed(agent, "stratum_step_done", {
      flow_id: flowId,
      step_id: "ship",
      result: { released: true },
    });
    log.expect("stratum_step_done", shipped, "complete");
    return true;
  } catch (e) {
    if (e instanceof FlowAbandoned) return false;
    throw e;
  }
}
