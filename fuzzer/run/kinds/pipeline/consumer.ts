// The fuzzer's agent on the consumer path of a pipeline step (docs/reference/runtime.md §4.8): it
// "runs" each element's chain of stage tasks itself and reports them all with
// stratum_parallel_done. Mostly every stage completes (with the stage's certificate when one
// applies); sometimes the report is inconsistent, to probe the element collapse: a chain that fails
// at one stage, a stage skipped without reason, a task left out, a status the server does not know,
// an id outside the graph, a merge conflict.
import type { StepIR } from "../../../../checker/index";
import type { Decider } from "../../decider";
import type { Plain } from "../../session";
import { taskIds } from "../task-ids";

type Pipeline = NonNullable<StepIR["pipeline"]>;
type ReasoningTemplateIR = NonNullable<Pipeline["taskReasoningTemplate"]>;
type Shape = "all-complete" | "chain-fails" | "skip" | "drop" | "odd-status" | "unknown-id";

export interface PipelineReport {
  readonly task_results: Plain[];
  readonly merge_status: "clean" | "conflict";
  /** `pass`: every task completed, certified, reported once, merged. */
  readonly aim: "pass" | "other";
}

function isObject(v: unknown): v is Plain {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The certificate of a stage task (the stage's own, else the step's for claude agents). */
function certificateOf(step: StepIR, stage: number): ReasoningTemplateIR | null {
  const pipeline = step.pipeline;
  if (pipeline == null) return null;
  const own = pipeline.stages[stage];
  if (own?.taskReasoningTemplate != null) return own.taskReasoningTemplate;
  const agent = own?.agent || step.agent || "claude";
  return agent.startsWith("claude") ? pipeline.taskReasoningTemplate : null;
}

function certificateText(template: ReasoningTemplateIR): string {
  return template.sections
    .map(
      (s, i) =>
        `## ${typeof s.label === "string" ? s.label : JSON.stringify(s.label)}\n${i === 0 ? "[P1] a fact" : "from [P1]"}`,
    )
    .join("\n\n");
}

export function pipelineReport(
  step: StepIR,
  payload: Plain,
  decider: Decider,
  literals: readonly string[],
): PipelineReport {
  const tasks = Array.isArray(payload.tasks) ? payload.tasks.filter(isObject) : [];
  const ids = taskIds(tasks);
  const some = ids.length > 0;
  const shape = decider.choose<Shape>([
    { name: "all-complete", weight: 60, exhaustive: true },
    { name: "chain-fails", weight: some ? 12 : 0, exhaustive: some },
    { name: "skip", weight: some ? 8 : 0, exhaustive: false },
    { name: "drop", weight: some ? 8 : 0, exhaustive: some },
    { name: "odd-status", weight: some ? 6 : 0, exhaustive: false },
    { name: "unknown-id", weight: 6, exhaustive: false },
  ]);
  const words = literals.filter((l) => l !== "");
  const results: Plain[] = tasks.map((task, i) => {
    const stage = typeof task._pipeline_stage === "number" ? task._pipeline_stage : 0;
    const template = certificateOf(step, stage);
    const summary = words.length === 0 ? "done" : words[i % words.length];
    const result = template === null ? { summary } : { summary, artifact: certificateText(template) };
    return { task_id: ids[i], status: "complete", result };
  });
  const last = results.length - 1;
  if (shape === "chain-fails" && last >= 0)
    results[last] = { task_id: ids[last], status: "failed", error: "stage failed (stratumc fuzz)" };
  if (shape === "skip" && last >= 0) results[last] = { task_id: ids[last], status: "skipped", result: null };
  if (shape === "odd-status" && last >= 0) results[last] = { ...results[last], status: "done" };
  if (shape === "drop") results.pop();
  if (shape === "unknown-id")
    results.push({ task_id: `${step.id}::item999::stage0`, status: "complete", result: {} });
  const merge_status = decider.choose<"clean" | "conflict">([
    { name: "clean", weight: 85, exhaustive: true },
    { name: "conflict", weight: 15, exhaustive: true },
  ]);
  // A skipped stage is trusted (docs/reference/runtime.md §4.8), so it passes too; an unknown id counts for no element.
  const aim =
    (shape === "all-complete" || shape === "skip" || shape === "unknown-id") &&
    merge_status === "clean" &&
    (ids.length > 0 || step.pipeline?.require !== "all")
      ? "pass"
      : "other";
  return { task_results: results, merge_status, aim };
}
