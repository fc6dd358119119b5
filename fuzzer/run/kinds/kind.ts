// How the fuzzer plays one step kind: what its agent answers to the kind's payload, and what the
// observer reads of the kind's answers. The driver and the observer ask a kind's descriptor
// (kinds/index.ts) instead of naming kinds; what every kind shares (a result drawn from the pool
// or aimed at the step's checks, gate outcomes, iterations, child flows) stays in the driver.
import type { CheckedSpec, FlowIR, StepIR } from "../../../checker/index";
import type { MemberViolation, Violation } from "../../../interpreter/index";
import type { PyValue } from "../../../stdlib/index";
import type { Solver } from "../../solver";
import type { Decider } from "../decider";
import type { RunEnd } from "../observation";
import type { Exchange, Plain, ToolName } from "../session";

/** What a result the agent reports is aimed at: every check passing, an ensure failing, an ensure raising. */
export type ResultAim = "pass" | "fail" | "raise";

/** What a kind's play may use of the run it is part of (the driver's calls, choices and notes). */
export interface KindRun {
  readonly spec: CheckedSpec;
  readonly solver: Solver;
  /** The spec's string literals (the agent's words). */
  readonly literals: readonly string[];
  readonly decider: Decider;
  /** How the run must stop, once it must; null until then. */
  stopped(): RunEnd | null;
  /** A tool call, recorded and shown to the observer. */
  call(tool: ToolName, args: Plain): Promise<Plain>;
  /** A result of `step` aimed as asked (the solver's, else a generated one). */
  result(aim: ResultAim, flow: FlowIR, step: StepIR, flowId: string): unknown;
  /** Reports a result with stratum_step_done, judging the answer and noting the step's output. */
  stepDone(
    flowId: string,
    stepId: string,
    result: unknown,
    repeatable: boolean,
    aim: "pass" | "other",
  ): Promise<Plain>;
  /** Whether `response` is the dispatch refusing the task list this report of `stepId` holds. */
  refused(flowId: string, stepId: string, result: unknown, response: Plain): boolean;
  /** The answer to a report the agent aimed (`pass`) or not, for the observer's coverage. */
  judged(flowId: string, stepId: string, aim: "pass" | "other", response: Plain): void;
  /** What later steps of the flow will read as the step's output (the solver aims at it). */
  setOutput(flowId: string, stepId: string, value: PyValue): void;
}

/** A kind's aggregate result (docs/reference/language.md §6.4). */
interface Aggregate {
  /** The verdicts that are the aggregate's own (require, merge, task certificates), not its ensures'. */
  readonly ownVerdict: (v: Violation) => boolean;
}

/** Members whose report did not count, remembered across the calls of one run (flow, step, member → verdict). */
export type MemberMemory = Map<string, MemberViolation>;

export interface FuzzKind {
  /**
   * The agent's answer to the payload that fans the step out to tasks or members (status
   * parallel_dispatch, or its retry with a failure status): it runs them itself and reports them.
   * Null for a kind that does not fan out.
   */
  readonly fanOut: ((run: KindRun, payload: Plain, flow: FlowIR, step: StepIR) => Promise<Plain>) | null;
  /**
   * How the agent reports a result it chose for the step (not a broken one, which is reported as
   * it is). Null: with stratum_step_done, as it is.
   */
  readonly report:
    | ((
        run: KindRun,
        flow: FlowIR,
        step: StepIR,
        flowId: string,
        result: unknown,
        aim: "pass" | "other",
      ) => Promise<Plain>)
    | null;
  /**
   * The members whose report did not count in this exchange (quorum runs, race candidates), with
   * their own reasons: the observer looks in them for an ensure that raised. Null: no members.
   */
  readonly membersOf:
    | ((ex: Exchange, flowId: string, stepId: string, memory: MemberMemory) => MemberViolation[])
    | null;
  /** A stratum_parallel_done of the step reports a round, which the step's ensures do not judge (its synthesis is). */
  readonly reportsRounds: boolean;
  /** The step's result is the aggregate of its tasks, whose shape is always known; null: what the agent reported. */
  readonly aggregate: Aggregate | null;
}

/**
 * A kind with nothing of its own to play or observe: the driver's shared paths answer it (a result
 * reported as it is, a gate outcome, a child flow).
 */
export const PLAIN_KIND: FuzzKind = {
  fanOut: null,
  report: null,
  membersOf: null,
  reportsRounds: false,
  aggregate: null,
};
