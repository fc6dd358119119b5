// Evaluating a parallel step's task results (the reference's _evaluate_parallel_results), shared
// by stratum_parallel_done, poll and advance: per-task certificates, the partition into completed
// and failed, `require`, the merge status and the aggregate that becomes the step's result.
// Task results are the caller's data and are never changed: a task whose certificate fails is
// copied with `status: "failed"`, `error` and `cert_violations` (the reference changes the
// caller's own list in place).
import type { ReasoningTemplateIR, StepIR } from "../../checker/ir/types";
import { dictGetStr, dictSet } from "../../stdlib/values/dict";
import { str } from "../../stdlib/values/repr";
import { truthy } from "../../stdlib/values/truth";
import { PyDict, type PyValue } from "../../stdlib/values/value";
import { parallelOf, requireWire } from "./parallel-payloads";
import { certificateViolations } from "./reasoning";
import type { CheckOutcome } from "./result-checks";

export interface ParallelEvaluation {
  /** `{tasks, merge_status, completed, failed, outcome}`, the step's result. */
  readonly aggregate: PyDict;
  /** `task '<id>' cert: <v1>; <v2>` per task whose certificate failed. */
  readonly certFailures: readonly string[];
  readonly requireSatisfied: boolean;
  readonly mergeOk: boolean;
  /** Why the aggregate fails (empty when it passes): the require or merge reason, then certFailures. */
  readonly failureReasons: readonly string[];
}

/**
 * The per-task certificate: only with `task_reasoning_template` and a Claude agent (no agent, or
 * one starting with `claude`) — the reference's consumer rule, applied on every path (B8).
 */
export function taskCertificateOf(step: StepIR): ReasoningTemplateIR | null {
  const template = parallelOf(step).taskReasoningTemplate;
  if (template === null) return null;
  const agent = step.agent === null || step.agent === "" ? "claude" : step.agent;
  return agent.startsWith("claude") ? template : null;
}

export function evaluateParallelResults(
  step: StepIR,
  taskResults: readonly PyValue[],
  mergeStatus: string,
): ParallelEvaluation {
  const template = taskCertificateOf(step);
  const certFailures: string[] = [];
  const tasks = taskResults.map((task) => {
    if (template === null || !(task instanceof PyDict) || dictGetStr(task, "status") !== "complete")
      return task;
    const reported = dictGetStr(task, "result") ?? null;
    // A non-object result has no artifact: every section is reported missing (B8).
    const violations = certificateViolations(template, truthy(reported) ? reported : new PyDict());
    if (violations.length === 0) return task;
    const flipped = new PyDict();
    for (const [k, v] of task.entries.values()) dictSet(flipped, k, v);
    dictSet(flipped, "status", "failed");
    dictSet(flipped, "error", `cert validation: ${violations.join("; ")}`);
    dictSet(flipped, "cert_violations", [...violations]);
    const id = dictGetStr(task, "task_id");
    const name = id === undefined ? "?" : typeof id === "string" ? id : str(id);
    certFailures.push(`task '${name}' cert: ${violations.join("; ")}`);
    return flipped;
  });
  const completed = tasks.filter(isComplete);
  const failed = tasks.filter((t) => !isComplete(t));
  const require = parallelOf(step).require;
  const requireSatisfied =
    require === "all"
      ? failed.length === 0
      : require === "any"
        ? completed.length > 0
        : completed.length >= require.value; // an integral float counts as its integer (B12)
  const mergeOk = mergeStatus !== "conflict";
  const aggregate = new PyDict();
  dictSet(aggregate, "tasks", tasks);
  dictSet(aggregate, "merge_status", mergeStatus);
  dictSet(aggregate, "completed", completed);
  dictSet(aggregate, "failed", failed);
  dictSet(aggregate, "outcome", requireSatisfied && mergeOk ? "complete" : "failed");
  const reason = !mergeOk
    ? "merge conflict: merge_status='conflict'"
    : !requireSatisfied
      ? `require='${str(requireWire(require))}' not satisfied: ${completed.length} completed, ${failed.length} failed`
      : null;
  return {
    aggregate,
    certFailures,
    requireSatisfied,
    mergeOk,
    failureReasons: reason === null ? [] : [reason, ...certFailures],
  };
}

function isComplete(task: PyValue): boolean {
  return task instanceof PyDict && dictGetStr(task, "status") === "complete";
}

/**
 * The outcome of a parallel step's attempt (decision B5): the result checks of the aggregate
 * (contract, output_schema, ensure) with the certificate failures appended to their violations,
 * then the aggregate check as one more failure stage — an unsatisfied `require` or a merge
 * conflict is an `ensure_failed` with its reason, so retries, exhaustion, on_fail and the
 * StepRecord follow the ordinary rules.
 */
export function parallelOutcome(checked: CheckOutcome, evaluation: ParallelEvaluation): CheckOutcome {
  if (!checked.ok) {
    return {
      ok: false,
      status: checked.status,
      violations: [...checked.violations, ...evaluation.certFailures],
    };
  }
  if (evaluation.failureReasons.length > 0) {
    return { ok: false, status: "ensure_failed", violations: [...evaluation.failureReasons] };
  }
  return { ok: true };
}
