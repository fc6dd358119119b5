// SPEC-NOT-PORTABLE: a feature a reference version rejects — one only stratumc accepts, or one of a
// later reference version — reported only when the check is asked for portability against a
// version (`checkSpec(text, { portable: "0.2.50" })`, `stratumc check --portable[=VERSION]`;
// docs/design/concurrency-constructs.md §1, principle 6). What counts is listed in features.ts and
// docs/reference/language.md §9.7. Each use is reported at the key (a stratumc-only key), at the value
// (`type: quorum`, `require: 0`) or at the part of an expression that is not portable.
import { keyRange, valueRange } from "../anchors";
import type { Fields, SpecModel } from "../model/types";
import type { Reporter } from "../report";
import { defineRule } from "../rule";
import { functionPath, namedSteps, stepPath } from "../rules/support";
import type { ExpressionTable } from "../spec-expr/types";
import { expressionUses } from "./expressions";
import {
  BUDGET_KEYS_SINCE_0250,
  consequenceFor,
  DEFAULT_PORTABLE_VERSION,
  KEYS_SINCE_0269,
  type PortabilityFeature,
  REQUIRE_ZERO,
  type ReferenceVersion,
  reportedFor,
  STRATUMC_ROOT_KEYS,
  STRATUMC_STEP_KEYS,
  STRATUMC_STEP_TYPES,
  verdictOf,
} from "./features";

export const SPEC_NOT_PORTABLE = defineRule({
  code: "SPEC-NOT-PORTABLE",
  severity: "warning",
  family: "portability",
  errorType: "ir_semantic_error",
  title: "A feature a reference version rejects (reported by check --portable[=VERSION])",
  doc: "Reported only by `stratumc check --portable[=VERSION]`, for teams that also run the Python reference (stratum-mcp 0.2.69 by default, or 0.2.50): the quorum, race and debate step kinds and their keys, member_contract, validate and require: 0 on parallel_dispatch steps are stratumc extensions the reference rejects, as is the top-level properties block, and the builtins float, sum, abs, round, sorted, any and all, or a $ path outside skip_if, make the reference's expression fail when it runs (any and all only in 0.2.50, which also rejects the features new in 0.2.69: the budget keys max_agent_dispatches and max_tokens, cache and pre_merge_verify among them). Rewrite the step with the reference's features (the suggestion says how), or keep the spec for stratumc only and check it without --portable.",
  example: {
    bad: '- {id: classify, type: quorum, intent: Classify the ticket, runs: 3, agree_on: "result.severity"}',
    good: "- {id: classify, intent: Classify the ticket, output_contract: Classification}",
  },
  message: (feature: string, verdict: string, consequence: string) =>
    `${feature} is ${verdict}: ${consequence}`,
  check(
    model: SpecModel,
    expressions: ExpressionTable | null,
    reporter: Reporter,
    target: ReferenceVersion = DEFAULT_PORTABLE_VERSION,
  ): void {
    const reported = (use: PortabilityFeature): boolean => reportedFor(use, target);
    const message = (use: PortabilityFeature): string =>
      SPEC_NOT_PORTABLE.message(use.feature, verdictOf(use), consequenceFor(use, target));
    for (const [key, use] of STRATUMC_ROOT_KEYS) {
      const entry = model.root.get(key);
      if (entry === undefined || !reported(use)) continue;
      reporter.report(SPEC_NOT_PORTABLE, {
        message: message(use),
        path: key,
        range: keyRange(entry),
        suggestion: use.suggestion,
      });
    }
    for (const step of namedSteps(model)) {
      const type = step.string("type");
      const kind = type === null ? undefined : STRATUMC_STEP_TYPES.get(type.value);
      if (type !== null && kind !== undefined && reported(kind)) {
        reporter.report(SPEC_NOT_PORTABLE, {
          message: message(kind),
          path: stepPath(step, "type"),
          range: valueRange(model.source, type.entry),
          suggestion: kind.suggestion,
        });
      }
      for (const [key, use] of STRATUMC_STEP_KEYS) {
        const entry = step.entry(key);
        // A structurally broken value has its own error; a null value is still the key.
        if (entry === undefined || !step.valid(key) || !reported(use)) continue;
        reporter.report(SPEC_NOT_PORTABLE, {
          message: message(use),
          path: stepPath(step, key),
          range: keyRange(entry),
          suggestion: use.suggestion,
        });
      }
      for (const { key, use } of KEYS_SINCE_0269.filter((k) => k.shape === "step")) {
        const entry = step.entry(key);
        if (entry === undefined || !step.valid(key) || !reported(use)) continue;
        reporter.report(SPEC_NOT_PORTABLE, {
          message: message(use),
          path: stepPath(step, key),
          range: keyRange(entry),
          suggestion: use.suggestion,
        });
      }
      // integer() reads an integral float such as 0.0 as 0, which the reference rejects as well.
      const require = step.integer("require");
      if (require !== null && require.value === 0 && reported(REQUIRE_ZERO)) {
        reporter.report(SPEC_NOT_PORTABLE, {
          message: message(REQUIRE_ZERO),
          path: stepPath(step, "require"),
          range: valueRange(model.source, require.entry),
          suggestion: REQUIRE_ZERO.suggestion,
        });
      }
    }
    for (const fn of model.functions) {
      for (const { key, use } of KEYS_SINCE_0269.filter((k) => k.shape === "function")) {
        const entry = fn.entry(key);
        if (entry === undefined || !fn.valid(key) || !reported(use)) continue;
        reporter.report(SPEC_NOT_PORTABLE, {
          message: message(use),
          path: functionPath(fn, key),
          range: keyRange(entry),
          suggestion: use.suggestion,
        });
      }
    }
    for (const [owner, path] of budgetOwners(model)) {
      reportBudgetKeys(owner, path, reporter, reported, message);
    }
    if (expressions === null) return;
    for (const found of expressionUses(model, expressions)) {
      if (!reported(found.use)) continue;
      reporter.report(SPEC_NOT_PORTABLE, {
        message: message(found.use),
        path: found.path,
        range: found.node.mapRange(found.start, found.end),
        suggestion: found.use.suggestion,
      });
    }
  },
});

/** Every mapping that may hold a `budget` (functions, flows, steps) with its path. */
function* budgetOwners(model: SpecModel): Generator<readonly [Fields, string]> {
  for (const fn of model.functions) yield [fn, `functions.${fn.name}`];
  for (const flow of model.flows) yield [flow, `flows.${flow.name}`];
  for (const step of namedSteps(model)) yield [step, stepPath(step)];
}

/** The run-budget keys of 0.2.69 in one `budget`, each at its key. */
function reportBudgetKeys(
  owner: Fields,
  path: string,
  reporter: Reporter,
  reported: (use: PortabilityFeature) => boolean,
  message: (use: PortabilityFeature) => string,
): void {
  const budget = owner.map("budget");
  if (budget === null) return;
  for (const [key, use] of BUDGET_KEYS_SINCE_0250) {
    const entry = budget.value.get(key);
    if (entry === undefined || !reported(use)) continue;
    reporter.report(SPEC_NOT_PORTABLE, {
      message: message(use),
      path: `${path}.budget.${key}`,
      range: keyRange(entry),
      suggestion: use.suggestion,
    });
  }
}

/** The rules `check --portable` adds (collected by the catalogue, run by checkSpec on request). */
export const PORTABILITY_RULES = [SPEC_NOT_PORTABLE] as const;
