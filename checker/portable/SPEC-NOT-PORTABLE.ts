// SPEC-NOT-PORTABLE: a feature only stratumc accepts, reported only when the check is asked for
// portability (`checkSpec(text, { portable: true })`, `stratumc check --portable`;
// docs/design/concurrency-constructs.md §1, principle 6). What counts is listed in features.ts and
// docs/reference/language.md §9.7. Each use is reported at the key (a stratumc-only key), at the value
// (`type: quorum`, `require: 0`) or at the part of an expression that is not portable.
import { keyRange, valueRange } from "../anchors";
import type { SpecModel } from "../model/types";
import type { Reporter } from "../report";
import { defineRule } from "../rule";
import { functionPath, namedSteps, stepPath } from "../rules/support";
import type { ExpressionTable } from "../spec-expr/types";
import { expressionUses } from "./expressions";
import { KEYS_SINCE_0269, REQUIRE_ZERO, STRATUMC_STEP_KEYS, STRATUMC_STEP_TYPES } from "./features";

export const SPEC_NOT_PORTABLE = defineRule({
  code: "SPEC-NOT-PORTABLE",
  severity: "warning",
  family: "portability",
  errorType: "ir_semantic_error",
  title: "A feature only stratumc accepts (reported by check --portable)",
  doc: "Reported only by `stratumc check --portable`, for teams that also run the Python reference (stratum-mcp 0.2.50): the quorum, race and debate step kinds and their keys, member_contract, validate and require: 0 on parallel_dispatch steps are stratumc extensions the reference rejects, cache (functions and steps) and pre_merge_verify are keys of 0.2.69 that 0.2.50 rejects, and the builtins float, sum, abs, round, sorted, any and all, or a $ path outside skip_if, make the reference's expression fail when it runs. Rewrite the step with the reference's features (the suggestion says how), or keep the spec for stratumc only and check it without --portable.",
  example: {
    bad: '- {id: classify, type: quorum, intent: Classify the ticket, runs: 3, agree_on: "result.severity"}',
    good: "- {id: classify, intent: Classify the ticket, output_contract: Classification}",
  },
  message: (feature: string, consequence: string) => `${feature} is stratumc-only: ${consequence}`,
  /** A key of reference 0.2.69 (features.ts, KEYS_SINCE_0269). */
  newerMessage: (feature: string, consequence: string) =>
    `${feature} needs stratum-mcp 0.2.69: ${consequence}`,
  check(model: SpecModel, expressions: ExpressionTable | null, reporter: Reporter): void {
    for (const step of namedSteps(model)) {
      const type = step.string("type");
      const kind = type === null ? undefined : STRATUMC_STEP_TYPES.get(type.value);
      if (type !== null && kind !== undefined) {
        reporter.report(SPEC_NOT_PORTABLE, {
          message: SPEC_NOT_PORTABLE.message(kind.feature, kind.consequence),
          path: stepPath(step, "type"),
          range: valueRange(model.source, type.entry),
          suggestion: kind.suggestion,
        });
      }
      for (const [key, use] of STRATUMC_STEP_KEYS) {
        const entry = step.entry(key);
        // A structurally broken value has its own error; a null value is still the key.
        if (entry === undefined || !step.valid(key)) continue;
        reporter.report(SPEC_NOT_PORTABLE, {
          message: SPEC_NOT_PORTABLE.message(use.feature, use.consequence),
          path: stepPath(step, key),
          range: keyRange(entry),
          suggestion: use.suggestion,
        });
      }
      for (const { key, use } of KEYS_SINCE_0269.filter((k) => k.shape === "step")) {
        const entry = step.entry(key);
        if (entry === undefined || !step.valid(key)) continue;
        reporter.report(SPEC_NOT_PORTABLE, {
          message: SPEC_NOT_PORTABLE.newerMessage(use.feature, use.consequence),
          path: stepPath(step, key),
          range: keyRange(entry),
          suggestion: use.suggestion,
        });
      }
      // integer() reads an integral float such as 0.0 as 0, which the reference rejects as well.
      const require = step.integer("require");
      if (require !== null && require.value === 0) {
        reporter.report(SPEC_NOT_PORTABLE, {
          message: SPEC_NOT_PORTABLE.message(REQUIRE_ZERO.feature, REQUIRE_ZERO.consequence),
          path: stepPath(step, "require"),
          range: valueRange(model.source, require.entry),
          suggestion: REQUIRE_ZERO.suggestion,
        });
      }
    }
    for (const fn of model.functions) {
      for (const { key, use } of KEYS_SINCE_0269.filter((k) => k.shape === "function")) {
        const entry = fn.entry(key);
        if (entry === undefined || !fn.valid(key)) continue;
        reporter.report(SPEC_NOT_PORTABLE, {
          message: SPEC_NOT_PORTABLE.newerMessage(use.feature, use.consequence),
          path: functionPath(fn, key),
          range: keyRange(entry),
          suggestion: use.suggestion,
        });
      }
    }
    if (expressions === null) return;
    for (const found of expressionUses(model, expressions)) {
      reporter.report(SPEC_NOT_PORTABLE, {
        message: SPEC_NOT_PORTABLE.message(found.use.feature, found.use.consequence),
        path: found.path,
        range: found.node.mapRange(found.start, found.end),
        suggestion: found.use.suggestion,
      });
    }
  },
});

/** The rules `check --portable` adds (collected by the catalogue, run by checkSpec on request). */
export const PORTABILITY_RULES = [SPEC_NOT_PORTABLE] as const;
