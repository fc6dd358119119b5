// Evaluating a parallel step's task results (the reference's _evaluate_parallel_results), shared
// by stratum_parallel_done, poll and advance: per-task member contracts (our extension) and
// certificates, the partition into completed and failed, `require`, the merge status and the
// aggregate that becomes the step's result.
// Task results are the caller's data and are never changed: a task whose contract or certificate
// fails is copied with `status: "failed"`, `error` and `contract_violations` / `cert_violations`
// (the reference changes the caller's own list in place).
import type { CheckedSpec, ReasoningTemplateIR, StepIR } from "../../../../checker/ir/types";
import { dictGetStr, dictSet } from "../../../../stdlib/values/dict";
import { str } from "../../../../stdlib/values/repr";
import { truthy } from "../../../../stdlib/values/truth";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import { bounceViolations, type MergeReport } from "../../merge-report";
import { certificateViolations } from "../../reasoning";
import type { CheckOutcome } from "../../result-checks";
import {
  certificateViolation,
  mergeConflict,
  requireViolation,
  taskViolation,
  type Violation,
  violationTexts,
} from "../../violations";
import { parallelOf, requireWire } from "./payload";
import { memberContractOf, memberViolations, taskIdText } from "./validate";

export interface ParallelEvaluation {
  /** `{tasks, merge_status, completed, failed, outcome}`, the step's result. */
  readonly aggregate: PyDict;
  /**
   * `task '<id>' contract: …` / `task '<id>' cert: <v1>; <v2>` per task whose check failed, in task
   * order, then one text per bounce record (merge-report.ts).
   */
  readonly certFailures: readonly string[];
  readonly requireSatisfied: boolean;
  readonly mergeOk: boolean;
  /** Why the aggregate fails (empty when it passes): the require or merge reason, then certFailures. */
  readonly failureReasons: readonly string[];
  /** certFailures, typed (`task` and `bounce` violations). */
  readonly taskViolations: readonly Violation[];
  /** failureReasons, typed. */
  readonly failureViolations: readonly Violation[];
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

/** A copy of `task` that failed a per-task check. */
function failedCopy(task: PyDict, error: string, key: string, violations: readonly string[]): PyDict {
  const flipped = new PyDict();
  for (const [k, v] of task.entries.values()) dictSet(flipped, k, v);
  dictSet(flipped, "status", "failed");
  dictSet(flipped, "error", error);
  dictSet(flipped, key, [...violations]);
  return flipped;
}

/** `spec` supplies the member contract (docs/design/concurrency-constructs.md §2); without it none is checked. */
export function evaluateParallelResults(
  step: StepIR,
  taskResults: readonly PyValue[],
  merge: MergeReport,
  spec?: CheckedSpec,
): ParallelEvaluation {
  const template = taskCertificateOf(step);
  const contract = memberContractOf(step, spec);
  const taskViolations: Violation[] = [];
  const tasks = taskResults.map((task) => {
    if (!(task instanceof PyDict) || dictGetStr(task, "status") !== "complete") return task;
    // The contract first, then the certificate, as for a step's own result (docs/reference/runtime.md §4.1).
    if (contract !== undefined && spec !== undefined) {
      const violations = memberViolations(task, contract, spec);
      if (violations.length > 0) {
        taskViolations.push(taskViolation(taskIdText(task), "contract", violations));
        const texts = violationTexts(violations);
        return failedCopy(task, `contract: ${texts.join("; ")}`, "contract_violations", texts);
      }
    }
    if (template === null) return task;
    const reported = dictGetStr(task, "result") ?? null;
    // A non-object result has no artifact: every section is reported missing (B8).
    const violations = certificateViolations(template, truthy(reported) ? reported : new PyDict());
    if (violations.length === 0) return task;
    taskViolations.push(taskViolation(taskIdText(task), "cert", violations.map(certificateViolation)));
    return failedCopy(task, `cert validation: ${violations.join("; ")}`, "cert_violations", violations);
  });
  // The consumer's bounce records are worded after the per-task checks, as the reference does.
  taskViolations.push(...bounceViolations(merge.bounced));
  const mergeStatus = merge.status;
  const completed = tasks.filter(isComplete);
  const failed = tasks.filter((t) => !isComplete(t));
  const require = parallelOf(step).require;
  // require: 0 (our extension) is always satisfied: completed.length >= 0.
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
    ? mergeConflict()
    : !requireSatisfied
      ? requireViolation(
          `require='${str(requireWire(require))}' not satisfied: ${completed.length} completed, ${failed.length} failed`,
        )
      : null;
  const failureViolations = reason === null ? [] : [reason, ...taskViolations];
  return {
    aggregate,
    certFailures: violationTexts(taskViolations),
    requireSatisfied,
    mergeOk,
    failureReasons: violationTexts(failureViolations),
    taskViolations,
    failureViolations,
  };
}

function isComplete(task: PyValue): boolean {
  return task instanceof PyDict && dictGetStr(task, "status") === "complete";
}

/**
 * The outcome of a parallel step's attempt (decision B5): the result checks of the aggregate
 * (contract, output_schema, ensure) with the per-task failures appended to their violations,
 * then the aggregate check as one more failure stage — an unsatisfied `require` or a merge
 * conflict is an `ensure_failed` with its reason, so retries, exhaustion, on_fail and the
 * StepRecord follow the ordinary rules — then `validate` (its violations, computed by the caller
 * only when everything before passed; validate.ts), failing the same way.
 */
export function parallelOutcome(
  checked: CheckOutcome,
  evaluation: ParallelEvaluation,
  validation: readonly Violation[] = [],
): CheckOutcome {
  if (!checked.ok) {
    return { ok: false, status: checked.status, reasons: [...checked.reasons, ...evaluation.taskViolations] };
  }
  if (evaluation.failureViolations.length > 0) {
    return { ok: false, status: "ensure_failed", reasons: [...evaluation.failureViolations] };
  }
  if (validation.length > 0) {
    return { ok: false, status: "ensure_failed", reasons: [...validation, ...evaluation.taskViolations] };
  }
  return { ok: true };
}

/** The judged task results of the aggregate (after the contract and certificate checks). */
export function judgedTasks(evaluation: ParallelEvaluation): readonly PyValue[] {
  const tasks = dictGetStr(evaluation.aggregate, "tasks");
  return Array.isArray(tasks) ? tasks : [];
}
