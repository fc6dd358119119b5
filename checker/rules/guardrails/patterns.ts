// The guardrail patterns a spec declares, where the reference compiles them: every function but a
// gate (SPEC-GATE-FN-GUARDRAILS reports that list), and every step that keeps its own list — not a
// function, gate or sub-flow step, whose list SPEC-FN-STEP-FIELD / SPEC-FLOW-STEP-FIELD report.
import { guardrailPattern, type PythonPattern } from "../../../stdlib/regex/python";
import type { SourceRange } from "../../base/source-range";
import type { FunctionDecl } from "../../model/types";
import type { NamedStep } from "../support";
import { functionPath, stepPath } from "../support";

export interface GuardrailPattern {
  /** "Function 'F'" or "Step 's'", as the reference's messages begin. */
  readonly owner: string;
  readonly index: number;
  readonly pattern: string;
  readonly compiled: PythonPattern;
  readonly path: string;
  readonly range: SourceRange;
}

function collect(
  fields: FunctionDecl | NamedStep,
  owner: string,
  path: (field: string) => string,
): GuardrailPattern[] {
  const list = fields.strings("guardrails");
  if (list === null) return [];
  return list.value.flatMap((node, index) => {
    if (typeof node.value !== "string" || node.value === "") return []; // schema errors
    const pattern = node.value;
    const compiled = guardrailPattern(pattern);
    return [{ owner, index, pattern, compiled, path: path(`guardrails.${index}`), range: node.range }];
  });
}

export function functionGuardrails(fn: FunctionDecl): GuardrailPattern[] {
  if (fn.mode === "gate") return [];
  return collect(fn, `Function '${fn.name}'`, (field) => functionPath(fn, field));
}

export function stepGuardrails(step: NamedStep): GuardrailPattern[] {
  if (step.kind === "function" || step.kind === "gate" || step.kind === "flow") return [];
  return collect(step, `Step '${step.id}'`, (field) => stepPath(step, field));
}
