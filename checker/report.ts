// The sink every rule reports into. Severity and error type come from the rule; the caller
// supplies the already-formatted message (from the rule's own `message` template), the path and
// the source range (see anchors.ts for the docs/reference/language.md §9.2 anchors).

import type { SourceRange } from "./base/source-range";
import type { SpecDiagnostic, SpecFix, SpecRelated } from "./diagnostic";
import type { RuleInfo } from "./rule";

export interface ReportInput {
  readonly message: string;
  readonly path: string;
  readonly range: SourceRange;
  readonly suggestion?: string;
  readonly related?: readonly SpecRelated[];
  readonly fix?: SpecFix;
}

export interface Reporter {
  report(rule: RuleInfo, input: ReportInput): void;
}

/** A reporter that collects into an array. */
export class DiagnosticSink implements Reporter {
  readonly diagnostics: SpecDiagnostic[] = [];

  report(rule: RuleInfo, input: ReportInput): void {
    const d: SpecDiagnostic = {
      code: rule.code,
      severity: rule.severity,
      errorType: rule.errorType,
      message: input.message,
      path: input.path,
      range: input.range,
      ...(input.suggestion !== undefined ? { suggestion: input.suggestion } : {}),
      ...(input.related !== undefined && input.related.length > 0 ? { related: input.related } : {}),
      ...(input.fix !== undefined ? { fix: input.fix } : {}),
    };
    this.diagnostics.push(d);
  }
}
