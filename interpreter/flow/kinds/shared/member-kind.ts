// stratumc's member steps (quorum, race, debate: docs/reference/runtime.md §23.13 to docs/reference/runtime.md §23.16)
// differ in their payload, their judgement and their members; everything else — a dispatch that
// voids an earlier vote, race or debate, reports by stratum_parallel_done, the members run by the
// server's executor and judged at poll — is the same, and built here from those parts.
import type { MemberIR, StepIR } from "../../../../checker/ir/types";
import type { PyDict, PyValue } from "../../../../stdlib/values/value";
import type { Response, Wire } from "../../../wire/wire";
import { deleteEntry } from "../../edits";
import { dropTaskEntries } from "../../parallel-tasks";
import type { FlowRun } from "../../run";
import type { Tx } from "../../tx";
import type { FlowKind } from "../descriptor";
import { dispatchInputs } from "./dispatch-inputs";
import { memberPlan } from "./member-plan";
import { memberPoll } from "./member-poll";
import { memberTasks } from "./member-tasks";

/** What one member kind has of its own. */
export interface MemberKindParts {
  readonly stepMode: FlowKind["stepMode"];
  readonly judgementKey: string;
  /** The dispatch payload (a vote, a race, a debate's round or its synthesis). */
  payload(run: FlowRun, step: StepIR, inputs: PyDict): Response;
  /** One call's worth of member reports judged. */
  done(tx: Tx, run: FlowRun, step: StepIR, reports: readonly PyValue[]): Response;
  /** The members the server runs now, in member order, each with its own intent and agent. */
  members(run: FlowRun, step: StepIR): readonly MemberIR[];
  /** Seconds one member task may run, as the IR gives it. */
  taskTimeout(step: StepIR): number;
  /**
   * A new dispatch keeps the step's `judge_outcome` (a quorum's votes stay for the audit until the
   * next attempt replaces them); otherwise a race's or a debate's progress is void.
   */
  readonly keepsJudgementOnDispatch: boolean;
  /**
   * The members judged so far when they are judged one by one as they settle (a race's
   * candidates); without it a poll judges the members together once every one has settled.
   */
  readonly judgedSoFar?: (run: FlowRun, step: StepIR) => ReadonlySet<string>;
  /** A judgement ends a round whose entries are dropped, so the next round is started afresh (a debate). */
  readonly entriesPerRound: boolean;
  readonly stepDone?: FlowKind["stepDone"];
  readonly refuseStart?: (run: FlowRun, step: StepIR) => Response | null;
  readonly cancelsRestAt?: (outcome: Wire) => boolean;
}

export function memberKind(parts: MemberKindParts): FlowKind {
  return {
    stepMode: parts.stepMode,
    judgementKey: parts.judgementKey,
    dispatch(tx, run, step, options) {
      const inputs = dispatchInputs(tx, run, step);
      // A new vote, race or debate (a first dispatch, a retry, a route back): server-side entries
      // of an earlier one are void; stratum_resume repeats where it stands.
      if (options.keepTasksOf !== step.id) {
        dropTaskEntries(run);
        if (!parts.keepsJudgementOnDispatch) deleteEntry(run, "judge_outcome", step.id);
      }
      return parts.payload(run, step, inputs);
    },
    stepDone: parts.stepDone,
    parallelDone: (tx, run, step, taskResults) => parts.done(tx, run, step, taskResults),
    server: {
      refuseStart: parts.refuseStart,
      startTasks: (run, step) => memberTasks(parts.members(run, step)),
      taskIds: (run, step) => new Set(parts.members(run, step).map((m) => m.id)),
      executorPlan: (step, tasks) => memberPlan(parts.taskTimeout(step), tasks.length),
      poll: (tx, seen, step, entries) => memberPoll(tx, seen, step, entries, parts),
      cancelsRestAt: parts.cancelsRestAt,
    },
  };
}
