// The checker pipeline (docs/reference/language.md §9.3): YAML → structure → semantics → expressions and
// references → checked IR. Reports every problem with an exact location; returns the IR only for
// a spec without errors.

import { type ParseResult, parseExpression } from "../grammar/parse";
import type { SourceRange } from "./base/source-range";
import { CATALOGUE, ruleInfo } from "./catalogue";
import { CONTROL_RULES, reportControl } from "./control/rules";
import type { Diagnostic, Fix, LocatedRange, Related, SpecDiagnostic } from "./diagnostic";
import { buildFlowGraph, GRAPH_RULES } from "./graph/index";
import { buildIR } from "./ir/build";
import type { CheckedSpec } from "./ir/types";
import { checkStructure } from "./model/check-structure";
import type { SpecModel } from "./model/types";
import { portableTarget, type ReferenceVersion } from "./portable/features";
import { SPEC_NOT_PORTABLE } from "./portable/SPEC-NOT-PORTABLE";
import { DiagnosticSink, type Reporter } from "./report";
import { SEMANTIC_RULES } from "./rules/index";
import { OUTPUT_SCHEMA_RULES } from "./rules/output-schema/index";
import type { VisitingRule } from "./rules/types";
import { runVisitingRules } from "./rules/walk";
import { SpecSource } from "./source";
import { checkSpecExpressions } from "./spec-expr/index";
import type { ExpressionTable } from "./spec-expr/types";
import { applySuppressions } from "./suppressions";
import { type LoadedYaml, loadYaml } from "./yaml/load";
import { oversizedBytes, type SpecSize, YAML_TOO_LARGE } from "./yaml/rules/YAML-TOO-LARGE";

export interface CheckOptions {
  /** Honour `# stratum-ignore[CODE]: reason` comments (default true). */
  readonly suppressions?: boolean;
  /**
   * Also report every feature the given reference version rejects, as SPEC-NOT-PORTABLE warnings
   * (true: the default version, 0.2.69; default false; `stratumc check --portable[=VERSION]`,
   * docs/reference/language.md §9.7).
   */
  readonly portable?: boolean | ReferenceVersion;
  /**
   * Decide the control model and report its diagnostics (default true). They are warnings and
   * infos only, so validity and the IR are the same without them; a caller that keeps only the
   * errors and the IR (the runtime's spec cache: plan, restore, the ui's reads) skips the
   * exploration, the largest part of checking a long flow.
   */
  readonly control?: boolean;
}

export interface CheckResult {
  readonly source: SpecSource;
  /** No error-severity diagnostic. */
  readonly valid: boolean;
  /** Every diagnostic, sorted by position (docs/reference/language.md §9.1), duplicates removed. */
  readonly diagnostics: readonly Diagnostic[];
  readonly errors: readonly Diagnostic[];
  /** Warning- and info-severity diagnostics. */
  readonly warnings: readonly Diagnostic[];
  /** The model (null when the YAML or the root/version did not allow one). */
  readonly model: SpecModel | null;
  readonly expressions: ExpressionTable | null;
  /** The checked IR of a valid spec (built on first access); null when there are errors. */
  readonly ir: CheckedSpec | null;
}

/**
 * Pipeline steps another caller may replace by equivalent ones that reuse earlier work (the
 * language server's incremental checker, checker/incremental/): each must answer exactly as the
 * default would for the same input.
 */
export interface CheckSteps {
  readonly loadYaml: (source: SpecSource, reporter: Reporter) => LoadedYaml;
  readonly parseExpression: (text: string) => ParseResult;
}

const DEFAULT_STEPS: CheckSteps = { loadYaml, parseExpression };

/** The semantic rules that visit the model, walked once per check (one list, so its dispatch is built once). */
const VISITING_RULES: readonly VisitingRule[] = [...SEMANTIC_RULES, ...OUTPUT_SCHEMA_RULES];

export function checkSpec(text: string, options: CheckOptions = {}): CheckResult {
  return checkSpecWith(text, options, DEFAULT_STEPS);
}

/** checkSpec with replaced pipeline steps (same result when the steps answer as the defaults). */
export function checkSpecWith(text: string, options: CheckOptions, steps: CheckSteps): CheckResult {
  const source = new SpecSource(text);
  const oversized = oversizedBytes(text);
  if (oversized !== null) return refused(source, { bytes: oversized, exact: true });
  const sink = new DiagnosticSink();
  let model: SpecModel | null = null;
  let expressions: ExpressionTable | null = null;
  const loaded = steps.loadYaml(source, sink);
  if (loaded.ok) {
    model = checkStructure(source, loaded.root, sink);
    if (model !== null) {
      runVisitingRules(VISITING_RULES, model, sink);
      for (const rule of GRAPH_RULES) rule.check(model, sink);
      expressions = checkSpecExpressions(model, sink, steps.parseExpression);
      const target = portableTarget(options.portable);
      if (target !== null) SPEC_NOT_PORTABLE.check(model, expressions, sink, target);
    }
  }
  // The control model is read from the IR, which exists only without errors: a spec with an
  // unknown route or a dependency cycle (reported above) gets no control verdict at all.
  let ir: CheckedSpec | null | undefined;
  const control = options.control !== false;
  if (model !== null && expressions !== null && !sink.diagnostics.some((d) => d.severity === "error")) {
    ir = buildIR(model, expressions, buildFlowGraph);
    if (control) reportControl(model, ir, sink);
  }
  const kept =
    options.suppressions === false
      ? sink.diagnostics
      : applySuppressions(source, sink.diagnostics, CATALOGUE, {
          // Without --portable the rule did not run: its suppressions are not unused.
          notChecked: [
            ...(portableTarget(options.portable) !== null ? [] : [SPEC_NOT_PORTABLE.code]),
            ...(control ? [] : CONTROL_RULES.map((r) => r.code)),
          ],
        });
  const diagnostics = present(source, kept);
  const errors = diagnostics.filter((d) => d.severity === "error");
  const warnings = diagnostics.filter((d) => d.severity !== "error");
  const valid = errors.length === 0;
  // The IR is handed out only for a valid spec, whichever phase reported the error.
  if (!valid) ir = null;
  const buildOnce = (): CheckedSpec | null => {
    if (ir === undefined) {
      ir =
        valid && model !== null && expressions !== null ? buildIR(model, expressions, buildFlowGraph) : null;
    }
    return ir;
  };
  return {
    source,
    valid,
    diagnostics,
    errors,
    warnings,
    model,
    expressions,
    get ir() {
      return buildOnce();
    },
  };
}

/**
 * The result for a spec over the size limit (YAML-TOO-LARGE) that a reader refused without reading
 * it all (a file by its size, standard input after the limit): the same diagnostic checkSpec gives
 * the whole text. `source` is empty: nothing of the text was kept.
 */
export function oversizedSpec(size: SpecSize): CheckResult {
  return refused(new SpecSource(""), size);
}

/** Whether the spec was refused for its size (its one diagnostic is YAML-TOO-LARGE). */
export function isOversized(result: CheckResult): boolean {
  return result.errors.length === 1 && result.errors[0]?.code === YAML_TOO_LARGE.code;
}

/** One YAML-TOO-LARGE diagnostic at the start of the text; nothing else is looked at. */
function refused(source: SpecSource, size: SpecSize): CheckResult {
  const sink = new DiagnosticSink();
  sink.report(YAML_TOO_LARGE, {
    message: YAML_TOO_LARGE.message(size),
    path: "",
    range: { start: 0, end: 0 },
  });
  // Located against an empty text: the start of any text is line 1, column 1, and the line table
  // of a huge text is never built.
  const diagnostics = present(new SpecSource(""), sink.diagnostics);
  return {
    source,
    valid: false,
    diagnostics,
    errors: diagnostics,
    warnings: [],
    model: null,
    expressions: null,
    ir: null,
  };
}

/** The public form of a diagnostic list: located, sorted, deduplicated (docs/reference/language.md §9.1). */
export function present(source: SpecSource, list: readonly SpecDiagnostic[]): Diagnostic[] {
  const located = list.map((d) => locate(source, d));
  located.sort(compareDiagnostics);
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of located) {
    const key = JSON.stringify([d.code, d.path, d.line, d.column, d.end_line, d.end_column, d.message]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

function at(source: SpecSource, range: SourceRange): LocatedRange {
  const l = source.lines.location(range.start, range.end);
  return { line: l.line, column: l.column, end_line: l.endLine, end_column: l.endColumn };
}

function locate(source: SpecSource, d: SpecDiagnostic): Diagnostic {
  const errorType = d.errorType ?? ruleInfo(d.code)?.errorType ?? "ir_semantic_error";
  const related: Related[] | undefined = d.related?.map((r) => ({
    message: r.message,
    path: r.path,
    ...at(source, r.range),
  }));
  const fix: Fix | undefined =
    d.fix === undefined
      ? undefined
      : {
          description: d.fix.description,
          edits: d.fix.edits.map((e) => ({ ...at(source, e.range), new_text: e.newText })),
          ...(d.fix.machineApplicable === false ? { machine_applicable: false as const } : {}),
        };
  return {
    success: false,
    error_type: errorType,
    path: d.path,
    message: d.message,
    ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}),
    code: d.code,
    severity: d.severity,
    ...at(source, d.range),
    ...(related !== undefined && related.length > 0 ? { related } : {}),
    ...(fix !== undefined ? { fix } : {}),
  };
}

/** The order of docs/reference/language.md §9.1: position, then code, then message. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    a.line - b.line ||
    a.column - b.column ||
    a.end_line - b.end_line ||
    a.end_column - b.end_column ||
    cmp(a.code, b.code) ||
    cmp(a.message, b.message)
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
