// Guardrails (docs/reference/runtime.md §25.1): Python `re` patterns searched, case-insensitively
// and in multi-line mode, in the result serialised as `json.dumps(result, sort_keys=True,
// default=str)`. Every matching pattern is a violation. A pattern RE2 cannot search (a
// backreference, a lookaround, …; the checker warns, SPEC-GUARDRAIL-REGEX-UNSUPPORTED) counts as
// a match — fail closed, as the reference counts a search that errs or times out.
import type { StepIR } from "../../checker/ir/types";
import { guardrailPattern } from "../../stdlib/regex/python";
import { canonicalJson } from "../../stdlib/values/json";
import type { PyValue } from "../../stdlib/values/value";
import type { FlowRun } from "./run";
import { guardrailMatched, type Violation } from "./violations";

/** The patterns of a step: its function's for a function step, else its own. */
export function guardrailsOf(run: FlowRun, step: StepIR): readonly string[] {
  if (step.kind === "function") return run.spec.functions.get(step.function ?? "")?.guardrails ?? [];
  return step.guardrails;
}

/** One violation per pattern found in the result's JSON text, in the patterns' order. */
export function guardrailViolations(patterns: readonly string[], result: PyValue): Violation[] {
  if (patterns.length === 0) return [];
  const text = canonicalJson(result);
  return patterns.filter((pattern) => matches(pattern, text)).map(guardrailMatched);
}

function matches(pattern: string, text: string): boolean {
  const compiled = guardrailPattern(pattern);
  return compiled.kind === "linear" ? compiled.search(text) : true;
}
