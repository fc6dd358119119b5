// STUB: suppression comments (filled by the CLI work).
import type { SpecDiagnostic } from "./diagnostic";
import type { RuleInfo } from "./rule";
import type { SpecSource } from "./source";

export const SUPPRESSION_RULES: readonly RuleInfo[] = [];

/** Removes suppressed diagnostics; adds diagnostics for malformed and unused suppressions. */
export function applySuppressions(
  _src: SpecSource,
  diagnostics: readonly SpecDiagnostic[],
): SpecDiagnostic[] {
  return [...diagnostics];
}
