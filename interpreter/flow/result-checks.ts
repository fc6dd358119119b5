// The checks of a reported result (docs/reference/runtime.md §4.1 stages 7–9): contract,
// output_schema, guardrails, certificate, ensure. The contract and output_schema stages both fail
// with `schema_failed` and their violations are listed together (contract first), as the reference
// lists its output_schema violations; guardrails (guardrails.ts, docs/reference/runtime.md §25.1) fail with
// `guardrail_blocked`; a reasoning certificate (reasoning.ts) is checked before ensure; each stage
// runs only when the ones before it pass.
import type { ContractIR, ExpressionIR, StepIR } from "../../checker/ir/types";
import { truthy } from "../../stdlib/values/truth";
import type { PyValue } from "../../stdlib/values/value";
import { conformsToContract, conformsToOutputSchema } from "../checks/checks";
import { bindable, evaluateIn } from "./expressions";
import { guardrailsOf, guardrailViolations } from "./guardrails";
import { certificateOf, certificateViolations } from "./reasoning";
import type { FlowRun } from "./run";
import type { Tx } from "./tx";
import {
  certificateViolation,
  contractViolations,
  ensureFailed,
  ensureRaised,
  outputSchemaViolations,
  type Violation,
} from "./violations";

export type CheckOutcome =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly status: "schema_failed" | "guardrail_blocked" | "ensure_failed";
      /** Typed (violations.ts); the response lists their texts. */
      readonly reasons: readonly Violation[];
    };

/** The contract a step's result is checked against: the function's output, or the step's output_contract. */
function contractOf(run: FlowRun, step: StepIR): ContractIR | undefined {
  if (step.kind === "function") {
    const fn = run.spec.functions.get(step.function ?? "");
    return fn === undefined || fn.output === "" ? undefined : run.spec.contracts.get(fn.output);
  }
  return step.outputContract === null ? undefined : run.spec.contracts.get(step.outputContract);
}

/** The ensure list of a step: its function's for function steps, else its own. */
function ensureOf(run: FlowRun, step: StepIR): readonly ExpressionIR[] {
  if (step.kind === "function") return run.spec.functions.get(step.function ?? "")?.ensure ?? [];
  return step.ensure;
}

export function checkResult(tx: Tx, run: FlowRun, step: StepIR, result: PyValue): CheckOutcome {
  const contract = contractOf(run, step);
  // Most reported results conform: asked first without building any text, and checked again in
  // full (the same checks, building every violation) only when one does not.
  const conforms =
    (contract === undefined || conformsToContract(result, contract, run.spec)) &&
    (step.outputSchema === null || conformsToOutputSchema(result, step.outputSchema));
  if (!conforms) {
    const schemaViolations = [
      ...(contract === undefined ? [] : contractViolations(result, contract, run.spec)),
      ...(step.outputSchema === null ? [] : outputSchemaViolations(result, step.outputSchema)),
    ];
    return { ok: false, status: "schema_failed", reasons: schemaViolations };
  }
  const blocked = guardrailViolations(guardrailsOf(run, step), result);
  if (blocked.length > 0) return { ok: false, status: "guardrail_blocked", reasons: blocked };
  // reasoning_template (Claude agents): after the schema checks, before ensure, as the reference.
  const certificate = certificateOf(step);
  if (certificate !== null) {
    const violations = certificateViolations(certificate, result);
    if (violations.length > 0)
      return { ok: false, status: "ensure_failed", reasons: violations.map(certificateViolation) };
  }
  const violations = ensureViolations(tx, run, ensureOf(run, step), result);
  if (violations.length > 0) return { ok: false, status: "ensure_failed", reasons: violations };
  return { ok: true };
}

/** Every ensure expression, in order, none skipped (docs/reference/language.md §10.14 texts). */
function ensureViolations(
  tx: Tx,
  run: FlowRun,
  ensure: readonly ExpressionIR[],
  result: PyValue,
): Violation[] {
  const names = new Map<string, PyValue>([["result", bindable(result)]]);
  const out: Violation[] = [];
  ensure.forEach((expr, index) => {
    const evaluation = evaluateIn(tx, run, expr, names);
    if (!evaluation.ok) out.push(...ensureRaised(index, expr.text, evaluation.error));
    else if (!truthy(evaluation.value)) out.push(ensureFailed(index, expr.text));
  });
  return out;
}
