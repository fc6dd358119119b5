// Why the interpreter rejected a result, as typed data: every check produces `Violation`s, and the
// `violations` texts of a response are derived from them here and nowhere else (`text`, byte for
// byte the reference's wording). Consumers (the fuzzer, the events of docs/reference/runtime.md "Events")
// decide on `kind` and the typed fields; the text is for people.
import type { JsonObject } from "../../checker/base/json";
import type { CheckedSpec, ContractIR } from "../../checker/ir/types";
import { strRepr } from "../../stdlib/values/repr";
import type { PyValue } from "../../stdlib/values/value";
import { CONTRACT_PREFIX, checkContract, checkOutputSchema, OUTPUT_SCHEMA_PREFIX } from "../checks/checks";

/** A run-time error an expression raised (docs/reference/language.md §10.13). */
export interface RaisedError {
  /** The Python exception kind (`ValueError`, …, or `BudgetExceeded`). */
  readonly type: string;
  readonly message: string;
  /**
   * True when a builtin raises the error as its answer rather than as a failure (no_file_conflicts
   * raises ValueError to say "there is a conflict", docs/reference/language.md §10.9).
   */
  readonly answer: boolean;
  /**
   * The messages of a `ValueError([...])` a helper raised with a list of strings
   * (plan_completion, vocabulary_compliance): an ensure lists each as its own violation.
   */
  readonly violations?: readonly string[];
}

/** Who a member violation is about: a quorum run, a race candidate, a debater. */
export type MemberRole = "run" | "candidate" | "debater";

/**
 * Why a member's report did not count. `not_reported`; the status the agent reported when it is
 * not `complete` (`failed`, …); `schema_failed` / `ensure_failed` (the step's checks, `reasons`
 * typed); `agree_on_raised` / `agree_on_unhashable` (a quorum's key); `off_contract` (a debater's
 * argument contract); `judged_earlier` (a race candidate judged in an earlier call, whose typed
 * reasons were in that call's events).
 */
export interface MemberVerdict {
  readonly status: string;
  readonly reasons: readonly Violation[];
  readonly error: RaisedError | null;
  /** The reason as the response words it (`ensure_failed: ensure 'x' failed`, `not reported`, …). */
  readonly why: string;
}

export type Violation =
  /** `detail`: the text after `contract violation: ` (the field, what it should be, what it is). */
  | { readonly kind: "contract"; readonly detail: string; readonly text: string }
  | { readonly kind: "output_schema"; readonly detail: string; readonly text: string }
  | { readonly kind: "certificate"; readonly text: string }
  /** A guardrail pattern found in the result (docs/reference/runtime.md §25.1). */
  | { readonly kind: "guardrail"; readonly pattern: string; readonly text: string }
  | {
      readonly kind: "ensure_failed";
      readonly index: number;
      readonly expression: string;
      readonly text: string;
    }
  | {
      readonly kind: "ensure_raised";
      readonly index: number;
      readonly expression: string;
      readonly error: RaisedError;
      readonly text: string;
    }
  | { readonly kind: "require"; readonly text: string }
  | { readonly kind: "merge_conflict"; readonly text: string }
  /** A task the consumer's merge bounced (`reason` gate_failed or merge_conflict). */
  | { readonly kind: "bounce"; readonly task: string; readonly reason: string; readonly text: string }
  | {
      readonly kind: "task";
      readonly task: string;
      readonly check: "contract" | "cert";
      readonly reasons: readonly Violation[];
      readonly text: string;
    }
  | { readonly kind: "validate_failed"; readonly expression: string; readonly text: string }
  | {
      readonly kind: "validate_raised";
      readonly expression: string;
      readonly error: RaisedError;
      readonly text: string;
    }
  | {
      readonly kind: "member";
      readonly role: MemberRole;
      readonly member: string;
      readonly verdict: MemberVerdict;
      readonly text: string;
    }
  /** A quorum without agreement (`no quorum on …`). */
  | { readonly kind: "agreement"; readonly text: string }
  /** A debate's `converge` raised. */
  | {
      readonly kind: "converge_raised";
      readonly expression: string;
      readonly error: RaisedError;
      readonly text: string;
    };

export type MemberViolation = Extract<Violation, { kind: "member" }>;

/** The response's `violations` list. */
export function violationTexts(reasons: readonly Violation[]): string[] {
  return reasons.map((v) => v.text);
}

/** The contract violations of `result`, typed (the checks' texts with their detail). */
export function contractViolations(result: PyValue, contract: ContractIR, spec: CheckedSpec): Violation[] {
  return checkContract(result, contract, spec).map((text) => ({
    kind: "contract",
    detail: text.slice(CONTRACT_PREFIX.length),
    text,
  }));
}

export function outputSchemaViolations(result: PyValue, schema: JsonObject): Violation[] {
  return checkOutputSchema(result, schema).map((text) => ({
    kind: "output_schema",
    detail: text.slice(OUTPUT_SCHEMA_PREFIX.length),
    text,
  }));
}

export function certificateViolation(text: string): Violation {
  return { kind: "certificate", text };
}

/** `guardrail matched: '<pattern>'`, the pattern written as Python's repr writes it. */
export function guardrailMatched(pattern: string): Violation {
  return { kind: "guardrail", pattern, text: `guardrail matched: ${strRepr(pattern)}` };
}

export function ensureFailed(index: number, expression: string): Violation {
  return { kind: "ensure_failed", index, expression, text: `ensure '${expression}' failed` };
}

/**
 * The violations of an ensure that raised: `Ensure expression '<expr>' raised: <message>`, or,
 * for a helper's list of violations, each of its messages as it is.
 */
export function ensureRaised(index: number, expression: string, error: RaisedError): Violation[] {
  if (error.violations !== undefined) {
    return error.violations.map((text) => ({ kind: "ensure_raised", index, expression, error, text }));
  }
  const text = `Ensure expression ${strRepr(expression)} raised: ${error.message}`;
  return [{ kind: "ensure_raised", index, expression, error, text }];
}

export function requireViolation(text: string): Violation {
  return { kind: "require", text };
}

export function mergeConflict(): Violation {
  return { kind: "merge_conflict", text: "merge conflict: merge_status='conflict'" };
}

/** `task '<id>' contract: v1; v2` / `task '<id>' cert: v1; v2`. */
export function taskViolation(
  task: string,
  check: "contract" | "cert",
  reasons: readonly Violation[],
): Violation {
  return { kind: "task", task, check, reasons, text: `task '${task}' ${check}: ${joined(reasons)}` };
}

export function validateFailed(expression: string): Violation {
  return { kind: "validate_failed", expression, text: `validate '${expression}' failed` };
}

export function validateRaised(expression: string, error: RaisedError): Violation {
  return {
    kind: "validate_raised",
    expression,
    error,
    text: `validate '${expression}' raised: ${error.message}`,
  };
}

export function agreementViolation(text: string): Violation {
  return { kind: "agreement", text };
}

export function convergeRaised(expression: string, error: RaisedError): Violation {
  const text = `converge ${strRepr(expression)} raised: ${error.message}`;
  return { kind: "converge_raised", expression, error, text };
}

/** `run '<id>': <why>` / `race lost: candidate '<id>': <why>` / `debater '<id>': <why>`. */
export function memberViolation(role: MemberRole, member: string, verdict: MemberVerdict): MemberViolation {
  const head = role === "run" ? "run" : role === "candidate" ? "race lost: candidate" : "debater";
  return { kind: "member", role, member, verdict, text: `${head} '${member}': ${verdict.why}` };
}

/** Texts joined as the response lists a member's or a task's violations on one line. */
export function joined(reasons: readonly Violation[]): string {
  return reasons.map((v) => v.text).join("; ");
}

/** Every violation with its nested ones (a task's, a member's), depth first. */
export function* allViolations(reasons: readonly Violation[]): Generator<Violation> {
  for (const v of reasons) {
    yield v;
    if (v.kind === "task") yield* allViolations(v.reasons);
    else if (v.kind === "member") yield* allViolations(v.verdict.reasons);
  }
}
