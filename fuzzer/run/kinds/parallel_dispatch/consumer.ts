// The fuzzer's agent on the consumer path of a parallel_dispatch step (docs/reference/runtime.md §23.2): it
// "runs" the dispatched tasks itself and reports them all with stratum_parallel_done. Each task is
// reported complete or failed with a generated result (carrying the step's task certificate, or
// sometimes a broken one), the roster is sometimes short of a task or repeats one, and the merge is
// mostly clean. Exhaustive mode enumerates a bounded set: all complete / one failed / all failed,
// certificate valid or broken, merge clean or conflict.
import type { StepIR } from "../../../../checker/index";
import type { Decider } from "../../decider";
import type { Plain } from "../../session";
import { taskIds } from "../task-ids";

type ReasoningTemplateIR = NonNullable<NonNullable<StepIR["parallel"]>["taskReasoningTemplate"]>;
type Statuses = "all-complete" | "one-failed" | "all-failed" | "mixed";
type Roster = "as-dispatched" | "drop" | "duplicate";
type Certificate = "valid" | "broken";
type Value = "summary" | "empty" | "text" | "null";

export interface ParallelReport {
  readonly task_results: Plain[];
  readonly merge_status: "clean" | "conflict";
}

/** A report and what the agent meant by it (`pass`: every task completed, certified, merged). */
export interface AimedReport extends ParallelReport {
  readonly aim: "pass" | "other";
}

function isObject(v: unknown): v is Plain {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function label(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** A certificate as `## <label>` sections, the last citing a premise (so `require_citations` holds too). */
function certificateText(template: ReasoningTemplateIR, broken: boolean): string {
  const sections = broken ? template.sections.slice(0, -1) : template.sections;
  return sections
    .map((s, i) => `## ${label(s.label)}\n${i === 0 ? "[P1] a fact" : "from [P1]"}`)
    .join("\n\n");
}

/** The certificate the consumer path checks: only for agents that are absent or `claude…` (docs/reference/runtime.md §23.4). */
function certificateOf(step: StepIR): ReasoningTemplateIR | null {
  const template = step.parallel?.taskReasoningTemplate ?? null;
  const agent = step.agent === null || step.agent === "" ? "claude" : step.agent;
  return template !== null && agent.startsWith("claude") ? template : null;
}

export function parallelReport(
  step: StepIR,
  payload: Plain,
  decider: Decider,
  literals: readonly string[],
): AimedReport {
  const ids = taskIds(payload.tasks);
  // With `require: all`, one failed task fails the step like all of them: one path is enough.
  const allFailedMatters = step.parallel?.require !== "all";
  const statuses = decider.choose<Statuses>([
    { name: "all-complete", weight: 60, exhaustive: true },
    { name: "one-failed", weight: ids.length > 0 ? 15 : 0, exhaustive: ids.length > 0 },
    { name: "all-failed", weight: ids.length > 1 ? 8 : 0, exhaustive: ids.length > 1 && allFailedMatters },
    { name: "mixed", weight: ids.length > 1 ? 10 : 0, exhaustive: false },
  ]);
  const failedAt = (i: number): boolean => {
    if (statuses === "all-complete") return false;
    if (statuses === "all-failed") return true;
    if (statuses === "one-failed") return i === ids.length - 1;
    const pick = decider.choose<"complete" | "failed">([
      { name: "complete", weight: 50, exhaustive: false },
      { name: "failed", weight: 50, exhaustive: false },
    ]);
    return pick === "failed";
  };
  const template = certificateOf(step);
  const certificate: Certificate =
    template === null || statuses === "all-failed"
      ? "valid"
      : decider.choose<Certificate>([
          { name: "valid", weight: 80, exhaustive: true },
          { name: "broken", weight: 20, exhaustive: true },
        ]);
  const results: Plain[] = ids.map((task_id, i) => {
    if (failedAt(i)) return { task_id, status: "failed", error: "task failed (stratumc fuzz)" };
    return { task_id, status: "complete", result: taskResult(decider, literals, i) };
  });
  if (template !== null) {
    // The broken certificate goes to the first completed task; the others carry a valid one.
    let broke = false;
    for (const r of results) {
      if (r.status !== "complete") continue;
      const broken: boolean = certificate === "broken" && !broke;
      broke ||= broken;
      const base = isObject(r.result) ? r.result : {};
      r.result = { ...base, artifact: certificateText(template, broken) };
    }
  }
  const roster = decider.choose<Roster>([
    { name: "as-dispatched", weight: 84, exhaustive: true },
    { name: "drop", weight: results.length > 0 ? 8 : 0, exhaustive: false },
    { name: "duplicate", weight: results.length > 0 ? 8 : 0, exhaustive: false },
  ]);
  if (roster === "drop") results.pop();
  if (roster === "duplicate" && results.length > 0) results.push({ ...results[0]! });
  const merge_status = decider.choose<"clean" | "conflict">([
    { name: "clean", weight: 85, exhaustive: true },
    { name: "conflict", weight: 15, exhaustive: true },
  ]);
  // The agent meant this report to pass when every task completed, certified, reported once and merged.
  const aim =
    statuses === "all-complete" &&
    certificate === "valid" &&
    roster === "as-dispatched" &&
    merge_status === "clean"
      ? "pass"
      : "other";
  return { task_results: results, merge_status, aim };
}

/** A task's result: a summary object (the spec's non-empty string literals), an empty object, text or null. */
function taskResult(decider: Decider, literals: readonly string[], i: number): unknown {
  const kind = decider.choose<Value>([
    { name: "summary", weight: 70, exhaustive: true },
    { name: "empty", weight: 10, exhaustive: false },
    { name: "text", weight: 10, exhaustive: false },
    { name: "null", weight: 10, exhaustive: false },
  ]);
  const words = literals.filter((l) => l !== "");
  const literal = words.length === 0 ? "done" : words[i % words.length]!;
  switch (kind) {
    case "summary":
      return { summary: literal, files_changed: [`src/t${i + 1}.ts`] };
    case "empty":
      return {};
    case "text":
      return literal;
    default:
      return null;
  }
}

/**
 * What the server will make of a report (docs/reference/runtime.md §23.3), for the agent's own notes on step
 * outputs (the solver aims later steps' results at them); the response is never read from here.
 */
export function aggregateOf(step: StepIR, report: ParallelReport): Plain {
  const template = certificateOf(step);
  const certified = (r: Plain): boolean =>
    template === null ||
    (isObject(r.result) &&
      typeof r.result.artifact === "string" &&
      template.sections.every((s) =>
        (r.result as Plain).artifact?.toString().includes(`## ${label(s.label)}`),
      ));
  const completed = report.task_results.filter((r) => r.status === "complete" && certified(r));
  const failed = report.task_results.filter((r) => !completed.includes(r));
  const require = step.parallel?.require ?? "all";
  const satisfied =
    require === "all"
      ? failed.length === 0
      : require === "any"
        ? completed.length > 0
        : completed.length >= require.value;
  return {
    tasks: report.task_results,
    merge_status: report.merge_status,
    completed,
    failed,
    outcome: satisfied && report.merge_status !== "conflict" ? "complete" : "failed",
  };
}
