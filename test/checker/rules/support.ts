// Test helpers for the semantic rules: run the real YAML loader and structure phase, then the
// SEMANTIC_RULES, and present the diagnostics in the public form (1-based lines, code-point
// columns, sorted) so that tests assert full ranges, suggestions and fixes.
import { present } from "../../../checker/check-spec";
import type { Diagnostic, Fix, LocatedRange } from "../../../checker/diagnostic";
import { checkStructure } from "../../../checker/model/check-structure";
import type { SpecModel, StepDecl } from "../../../checker/model/types";
import { DiagnosticSink } from "../../../checker/report";
import type { RuleInfo } from "../../../checker/rule";
import { SEMANTIC_RULES } from "../../../checker/rules/index";
import { runVisitingRules } from "../../../checker/rules/walk";
import { SpecSource } from "../../../checker/source";
import { loadYaml } from "../../../checker/yaml/load";

export interface RuleRun {
  /** Diagnostics of the semantic rules. */
  readonly rules: Diagnostic[];
  /** Diagnostics of the YAML and structure phases. */
  readonly structure: Diagnostic[];
}

export function runPhases(yaml: string): RuleRun {
  const source = new SpecSource(yaml);
  const structure = new DiagnosticSink();
  const loaded = loadYaml(source, structure);
  const sink = new DiagnosticSink();
  if (loaded.ok) {
    const model = checkStructure(source, loaded.root, structure);
    if (model !== null) runVisitingRules(SEMANTIC_RULES, model, sink);
  }
  return { rules: present(source, sink.diagnostics), structure: present(source, structure.diagnostics) };
}

/** loadYaml → checkStructure → SEMANTIC_RULES, as public diagnostics. */
export function runRules(yaml: string): Diagnostic[] {
  return runPhases(yaml).rules;
}

/**
 * The range of the `nth` occurrence of `needle` on 1-based `line` (or from `line` to `endLine`,
 * where `needle` ends on `endLine` after `endNeedle`). ASCII fixtures: columns are indices + 1.
 */
export function span(text: string, line: number, needle: string, nth = 0): LocatedRange {
  const lineText = text.split(/\r\n|\r|\n/)[line - 1];
  if (lineText === undefined) throw new Error(`no line ${line}`);
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = lineText.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' (#${nth}) not on line ${line}: ${lineText}`);
  }
  return { line, column: at + 1, end_line: line, end_column: at + 1 + needle.length };
}

/** A range from the start of one span to the end of another. */
export function join(from: LocatedRange, to: LocatedRange): LocatedRange {
  return { line: from.line, column: from.column, end_line: to.end_line, end_column: to.end_column };
}

/** An empty range at a position. */
export function point(line: number, column: number): LocatedRange {
  return { line, column, end_line: line, end_column: column };
}

export interface Extra {
  readonly suggestion?: string;
  readonly fix?: Fix;
}

/** The public diagnostic a rule is expected to produce. */
export function diag(
  rule: RuleInfo,
  path: string,
  message: string,
  at: LocatedRange,
  extra: Extra = {},
): Diagnostic {
  return {
    success: false,
    error_type: rule.errorType,
    path,
    message,
    ...(extra.suggestion !== undefined ? { suggestion: extra.suggestion } : {}),
    code: rule.code,
    severity: rule.severity,
    ...at,
    ...(extra.fix !== undefined ? { fix: extra.fix } : {}),
  };
}

/** A one-edit fix. */
export function fix(description: string, at: LocatedRange, newText: string): Fix {
  return { description, edits: [{ ...at, new_text: newText }] };
}

/** A 0.2 document: a contract `Out`, functions `work` (infer) and `review` (gate), flow `f`. */
const HEADER = [
  'version: "0.2"',
  "contracts:",
  "  Out: {v: {type: string}}",
  "  Report: {v: {type: string}}",
  "functions:",
  "  work: {mode: infer, intent: w, input: {}, output: Out}",
  "  review: {mode: gate}",
  "flows:",
  "  f:",
  "    input: {}",
  "    steps:",
  "      - {id: a, function: work, inputs: {}}",
];

/** Line of the step item `i` given to `withSteps` (the header's step `a` is on line 12). */
export const STEP_LINE = 13;

/** The header plus flow-style (or any single-line) step items, one per line from STEP_LINE. */
export function withSteps(...items: string[]): string {
  return [...HEADER, ...items.map((s) => `      - ${s}`), ""].join("\n");
}

/** The header plus raw lines after it (block steps, more flows…). */
export function withLines(...lines: string[]): string {
  return [...HEADER, ...lines, ""].join("\n");
}

/** A gate step on `review` with all three routes declared, plus extra flow-style fields. */
export function gate(id: string, extra = ""): string {
  return `{id: ${id}, function: review, on_approve: null, on_kill: null, on_revise: a${extra === "" ? "" : `, ${extra}`}}`;
}

/** The model of a document (the real loader and structure phase); throws when there is none. */
export function modelOf(yaml: string): SpecModel {
  const source = new SpecSource(yaml);
  const sink = new DiagnosticSink();
  const loaded = loadYaml(source, sink);
  const model = loaded.ok ? checkStructure(source, loaded.root, sink) : null;
  if (model === null) throw new Error("no model");
  return model;
}

/** Step `id` of flow `flow` in a model. */
export function stepOf(model: SpecModel, id: string, flow = "f"): StepDecl {
  const step = model.flowByName.get(flow)?.stepById.get(id);
  if (step === undefined) throw new Error(`no step ${flow}.${id}`);
  return step;
}
