// How the observer reads the interpreter's responses and events: plain accessors of the wire
// values, what a response says about the step it answered, and the texts findings quote.
import type { RaisedError, Violation } from "../../interpreter/index";
import type { Plain } from "./session";

/** Whether a violation is about the result's shape (contract, output_schema). */
export function isShape(v: Violation): boolean {
  return v.kind === "contract" || v.kind === "output_schema";
}

export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

export function obj(v: unknown): Plain | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Plain) : null;
}

/** The step stays current (retry), exhausted, or was routed through on_fail. */
export function isRetryOrFailure(response: Plain, step: string): boolean {
  const status = str(response.status);
  if (
    (status === "ensure_failed" || status === "schema_failed" || status === "guardrail_blocked") &&
    response.step_id === step
  )
    return true;
  if (status === "error") return true;
  if (Array.isArray(response.violations) && response.violations.length > 0) return true;
  return response.routed_from === step;
}

/** The interpreter's reason for rejecting a result, as it worded it (violations, else its message). */
export function rejectionOf(response: Plain): string {
  const violations = Array.isArray(response.violations)
    ? response.violations.map(str).filter((v) => v !== "")
    : [];
  if (violations.length > 0) return violations.join("; ");
  const message = str(response.message);
  return message === "" ? str(response.status) : message;
}

/** What an expression raised, as the findings quote it; the interpreter's text when it raised nothing. */
export function errorText(error: RaisedError | null, text: string): string {
  return error === null ? text : error.message;
}

/** A finding's message with a hint that says how to remove it, when there is one. */
export function withHint(message: string, hint: string | null): string {
  return hint === null ? message : `${message} (${hint})`;
}
