// The stratumc extensions of a parallel step's judging (docs/design/concurrency-constructs.md §2,
// docs/reference/runtime.md §23.3): `member_contract`, checked against each completed task's result (a
// violation fails the task, as a certificate does), and `validate`, an expression over the judged
// tasks evaluated once require and merge pass; false or an exception fails the step like an ensure.
import type { CheckedSpec, ContractIR, StepIR } from "../../../../checker/ir/types";
import { dictGetStr } from "../../../../stdlib/values/dict";
import { str } from "../../../../stdlib/values/repr";
import { truthy } from "../../../../stdlib/values/truth";
import { PyDict, type PyValue } from "../../../../stdlib/values/value";
import { bindable, evaluateIn } from "../../expressions";
import type { FlowRun } from "../../run";
import type { Tx } from "../../tx";
import { contractViolations, type Violation, validateFailed, validateRaised } from "../../violations";
import { parallelOf } from "./payload";

/** The step's member contract as declared in `spec` (undefined without one). */
export function memberContractOf(step: StepIR, spec: CheckedSpec | undefined): ContractIR | undefined {
  const name = parallelOf(step).memberContract ?? null;
  return name === null || spec === undefined ? undefined : spec.contracts.get(name);
}

/** The contract violations of a task's reported `result` (an absent result is None). */
export function memberViolations(task: PyDict, contract: ContractIR, spec: CheckedSpec): Violation[] {
  return contractViolations(dictGetStr(task, "result") ?? null, contract, spec);
}

/** A task's id as the violation strings name it: `?` without one. */
export function taskIdText(task: PyValue): string {
  const id = task instanceof PyDict ? dictGetStr(task, "task_id") : undefined;
  return id === undefined ? "?" : typeof id === "string" ? id : str(id);
}

/**
 * The violations of the step's `validate` over the judged tasks (`[]` without one): `results`
 * (each completed task's result, an object as a namespace), `tasks` (the judged task results),
 * `completed` and `failed` (task ids), and `$` paths as for ensure.
 */
export function validateViolations(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  tasks: readonly PyValue[],
): Violation[] {
  const expr = parallelOf(step).validate ?? null;
  if (expr === null) return [];
  const complete = (t: PyValue): boolean => t instanceof PyDict && dictGetStr(t, "status") === "complete";
  const names = new Map<string, PyValue>([
    ["results", tasks.filter(complete).map((t) => bindable(dictGetStr(t as PyDict, "result") ?? null))],
    ["tasks", [...tasks]],
    ["completed", tasks.filter(complete).map(taskIdText)],
    ["failed", tasks.filter((t) => !complete(t)).map(taskIdText)],
  ]);
  const evaluation = evaluateIn(tx, run, expr, names);
  if (!evaluation.ok) return [validateRaised(expr.text, evaluation.error)];
  return truthy(evaluation.value) ? [] : [validateFailed(expr.text)];
}
