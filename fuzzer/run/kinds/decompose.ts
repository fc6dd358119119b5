// A decompose step: the agent reports a result like any step's, with the task lists a parallel step
// of the flow reads from it varied (decompose/task-lists.ts). A list the dispatch of the parallel
// step refuses (duplicate ids, unknown or cyclic dependencies: nothing committed) is the agent's
// mistake, not the spec's: the agent reports again with a well-formed list.
import type { FlowIR, StepIR } from "../../../checker/index";
import type { Plain } from "../session";
import { taskListPaths } from "../task-list-refusal";
import { shapeTaskLists, type TaskListShape } from "./decompose/task-lists";
import type { FuzzKind, KindRun } from "./kind";

async function reportTaskLists(
  run: KindRun,
  flow: FlowIR,
  step: StepIR,
  flowId: string,
  result: unknown,
  aim: "pass" | "other",
): Promise<Plain> {
  const paths = taskListPaths(flow, step);
  if (paths.length === 0) return run.stepDone(flowId, step.id, result, true, aim);
  const shape = run.decider.choose<TaskListShape>([
    { name: "as-generated", weight: 40, exhaustive: true },
    // Exhaustive mode keeps the generated list (a list the dispatch refuses is replaced below).
    { name: "several", weight: 20, exhaustive: false },
    { name: "empty", weight: 8, exhaustive: false },
    { name: "one", weight: 10, exhaustive: false },
    { name: "shared-files", weight: 10, exhaustive: false },
    { name: "cycle", weight: 4, exhaustive: false },
    { name: "dangling", weight: 4, exhaustive: false },
    { name: "duplicate-id", weight: 4, exhaustive: false },
  ]);
  const listAim = shape === "as-generated" ? aim : "other";
  const reported = shapeTaskLists(result, paths, shape);
  const r = await run.stepDone(flowId, step.id, reported, true, listAim);
  if (!run.refused(flowId, step.id, reported, r) || run.stopped() !== null) return r;
  return run.stepDone(flowId, step.id, shapeTaskLists(result, paths, "several"), true, "other");
}

export const decompose: FuzzKind = {
  fanOut: null,
  report: reportTaskLists,
  membersOf: null,
  reportsRounds: false,
  aggregate: null,
};
