// A debate step (docs/reference/runtime.md §23.15): each round the agent has every debater argue and reports
// the round with stratum_parallel_done; a round is not judged by the step's ensures (its synthesis
// is, as a result of its own).
import type { StepIR } from "../../../checker/index";
import type { Decider } from "../decider";
import type { Plain } from "../session";
import type { FuzzKind, KindRun } from "./kind";
import { taskIds } from "./task-ids";

/**
 * One round of a debate: every debater argues with a value of the argument contract (`{position}`
 * without one), or — to reach the round's retry — one ends `failed`. Exhaustive mode enumerates
 * both.
 */
function debateRound(ids: readonly string[], decider: Decider, argument: (i: number) => unknown): Plain[] {
  const outcome = decider.choose<"all-argue" | "one-fails">([
    { name: "all-argue", weight: 85, exhaustive: true },
    { name: "one-fails", weight: 15, exhaustive: true },
  ]);
  return ids.map((task_id, i) =>
    outcome === "one-fails" && i === ids.length - 1
      ? { task_id, status: "failed", error: "debater failed (stratumc fuzz)" }
      : { task_id, status: "complete", result: argument(i) },
  );
}

/** One round of a debate step: the agent has each debater argue and reports the round. */
function playRound(run: KindRun, payload: Plain, step: StepIR): Promise<Plain> {
  const contract = step.debate?.argumentContract ?? null;
  const values = contract === null ? [] : run.solver.contractValues(contract);
  const round = typeof payload.round === "number" ? payload.round : 1;
  const words = run.literals.filter((l) => l !== "");
  const argument = (i: number): unknown =>
    values.length > 0
      ? values[(round + i) % values.length]
      : { position: words.length === 0 ? `position ${i + 1}` : words[(round + i) % words.length] };
  return run.call("stratum_parallel_done", {
    flow_id: typeof payload.flow_id === "string" ? payload.flow_id : "",
    step_id: step.id,
    task_results: debateRound(taskIds(payload.tasks), run.decider, argument),
    merge_status: "clean",
  });
}

export const debate: FuzzKind = {
  fanOut: (run, payload, _flow, step) => playRound(run, payload, step),
  report: null,
  membersOf: null,
  reportsRounds: true,
  aggregate: null,
};
