// What only stratumc accepts (docs/reference/language.md §6.4–docs/reference/language.md §6.7, docs/reference/divergences.md):
// the step kinds, step keys and values the reference, stratum-mcp 0.2.50, rejects, and the
// expression features it fails on when an expression runs. `stratumc check --portable` reports
// each use (SPEC-NOT-PORTABLE, SPEC-NOT-PORTABLE.ts); the decisions are listed in docs/reference/language.md §9.7.
import { STEP_KINDS } from "../base/step-kinds";
import { CHECKER_KINDS } from "../kinds/index";

/** One stratumc-only feature: how the message names it, and what to do instead. */
export interface PortabilityFeature {
  /** Named in the message: `type: quorum`, `'runs' (quorum steps)`, `require: 0`. */
  readonly feature: string;
  /** What the reference does with it: `stratum-mcp 0.2.50 rejects it`. */
  readonly consequence: string;
  readonly suggestion: string;
}

const REJECTS = "stratum-mcp 0.2.50 rejects it";

const KEEP = "or keep this spec for stratumc only";

/** The kinds only stratumc accepts (checker/kinds/<kind>.ts, `stratumcOnly`), in table order. */
const STRATUMC_KINDS = STEP_KINDS.flatMap((kind) => {
  const only = CHECKER_KINDS[kind].stratumcOnly;
  return only === null ? [] : [{ kind, only, keys: CHECKER_KINDS[kind].ownKeys }];
});

/**
 * `type: <kind>` values the reference's schema rejects (race: docs/design/concurrency-constructs.md §3,
 * quorum: docs/design/concurrency-constructs.md §4, debate: docs/design/concurrency-constructs.md §5).
 */
export const STRATUMC_STEP_TYPES: ReadonlyMap<string, PortabilityFeature> = new Map([
  ...STRATUMC_KINDS.map(
    ({ kind, only }) =>
      [
        kind,
        { feature: `type: ${kind}`, consequence: REJECTS, suggestion: `${only.suggestion}, ${KEEP}` },
      ] as const,
  ),
  // New in the reference's 0.2.69 (docs/reference/language.md §6.9): 0.2.50 rejects it, 0.2.69 accepts it.
  [
    "pipeline",
    {
      feature: "type: pipeline",
      consequence: `${REJECTS} (0.2.69 accepts it)`,
      suggestion: "Use a parallel_dispatch step per stage, or require stratum-mcp 0.2.69",
    },
  ],
]);

const kindKey = (key: string, kind: string): PortabilityFeature => ({
  feature: `'${key}' (${kind} steps)`,
  consequence: REJECTS,
  suggestion: `Remove '${key}' together with the ${kind} step it belongs to, ${KEEP}`,
});

/**
 * Step keys the reference's schema rejects (additionalProperties: false): the own keys of the
 * kinds only stratumc accepts, and stratumc's extensions of parallel_dispatch. checker/schema's
 * descriptions mark each of them "(a stratumc extension)"; test/checker/portable/ keeps the two
 * lists equal.
 */
export const STRATUMC_STEP_KEYS: ReadonlyMap<string, PortabilityFeature> = new Map([
  ...STRATUMC_KINDS.flatMap(({ kind, keys }) => keys.map((key) => [key, kindKey(key, kind)] as const)),
  [
    "member_contract",
    {
      feature: "'member_contract' (parallel_dispatch steps)",
      consequence: REJECTS,
      suggestion: `Check each task's result in the step's ensure (over result.tasks), ${KEEP}`,
    },
  ],
  [
    "validate",
    {
      feature: "'validate' (parallel_dispatch steps)",
      consequence: REJECTS,
      suggestion: `Move the check into the step's ensure (result.tasks, result.completed, result.failed), ${KEEP}`,
    },
  ],
]);

/** `require: 0` on a parallel_dispatch step (the reference's schema has minimum 1). */
export const REQUIRE_ZERO: PortabilityFeature = {
  feature: "require: 0",
  consequence: `${REJECTS} (its minimum is 1)`,
  suggestion: `Use require: any (at least one task completes) and judge the rest in ensure, ${KEEP}`,
};

/**
 * Builtins stratumc adds to 0.2.50's `file_exists, file_contains, len, bool, int, str, max, min`
 * (docs/reference/divergences.md, DIV-BUILTINS-MORE): in the reference a call raises NameError when the
 * expression runs.
 */
export const STRATUMC_BUILTINS: ReadonlySet<string> = new Set([
  "float",
  "sum",
  "abs",
  "round",
  "sorted",
  "any",
  "all",
]);

export function builtinFeature(name: string, field: string): PortabilityFeature {
  // A skip_if that raises means "do not skip" there (docs/reference/divergences.md, DIV-SKIP-IF-WARNINGS).
  const outcome = field === "skip_if" ? " (so the step is never skipped)" : "";
  return {
    feature: `the builtin '${name}'`,
    consequence: `in stratum-mcp 0.2.50 the expression raises NameError when it runs${outcome}`,
    suggestion: `Rewrite it with the reference's builtins (file_exists, file_contains, len, bool, int, str, max, min), ${KEEP}`,
  };
}

/** A `$` path outside skip_if (docs/reference/divergences.md, DIV-DOLLAR-EVERYWHERE). */
export function dollarPathFeature(field: string): PortabilityFeature {
  return {
    feature: `a $ path in ${field}`,
    consequence: "in stratum-mcp 0.2.50 the expression is a syntax error when it runs",
    suggestion: `The reference resolves $ paths only in inputs and skip_if: pass the value as an input and have the step report what to check in its result, ${KEEP}`,
  };
}
