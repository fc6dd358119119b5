// What a reference version rejects (docs/reference/language.md §6.4–docs/reference/language.md §6.7, docs/reference/divergences.md):
// the step kinds, step keys and values only stratumc accepts, the expression features the
// reference fails on when an expression runs, and the features of a later reference version an
// earlier one rejects (`since`). `stratumc check --portable[=VERSION]` reports each use against
// that version (SPEC-NOT-PORTABLE, SPEC-NOT-PORTABLE.ts); the decisions are listed in docs/reference/language.md §9.7.
import { STEP_KINDS } from "../base/step-kinds";
import { CHECKER_KINDS } from "../kinds/index";

/** The reference versions `check --portable=VERSION` checks against, oldest first. */
export const REFERENCE_VERSIONS = ["0.2.50", "0.2.69"] as const;
export type ReferenceVersion = (typeof REFERENCE_VERSIONS)[number];
/** What `--portable` alone checks against: the version stratumc matches. */
export const DEFAULT_PORTABLE_VERSION: ReferenceVersion = "0.2.69";

/**
 * One feature that some reference version rejects: how the message names it, what that version
 * does with it and what to do instead. `since`: the first reference version that accepts it
 * (absent: none does, it is stratumc's own); it is reported when checking against an older one.
 */
export interface PortabilityFeature {
  /** Named in the message: `type: quorum`, `'runs' (quorum steps)`, `require: 0`. */
  readonly feature: string;
  /**
   * What the reference does with it: `stratum-mcp {version} rejects it`, `{version}` standing for
   * the version checked against (a feature with `since` may name 0.2.50, the one version it is
   * reported for).
   */
  readonly consequence: string;
  readonly suggestion: string;
  readonly since?: ReferenceVersion;
}

/** The reference version a `portable` option checks against (true: the default), or null for none. */
export function portableTarget(portable: boolean | ReferenceVersion | undefined): ReferenceVersion | null {
  if (portable === undefined || portable === false) return null;
  return portable === true ? DEFAULT_PORTABLE_VERSION : portable;
}

/** Whether checking against `target` reports the feature: no version accepts it, or a later one only. */
export function reportedFor(feature: PortabilityFeature, target: ReferenceVersion): boolean {
  return (
    feature.since === undefined ||
    REFERENCE_VERSIONS.indexOf(feature.since) > REFERENCE_VERSIONS.indexOf(target)
  );
}

/** The feature's consequence for the version checked against. */
export function consequenceFor(feature: PortabilityFeature, target: ReferenceVersion): string {
  return feature.consequence.replaceAll("{version}", target);
}

/** The message's verdict: `stratumc-only`, or `new in stratum-mcp 0.2.69`. */
export function verdictOf(feature: PortabilityFeature): string {
  return feature.since === undefined ? "stratumc-only" : `new in stratum-mcp ${feature.since}`;
}

const REJECTS = "stratum-mcp {version} rejects it";

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
  // Kinds of a later reference release (pipeline, docs/reference/language.md §6.9): reported
  // against the releases before it only.
  ...STEP_KINDS.flatMap((kind) => {
    const since = CHECKER_KINDS[kind].referenceSince;
    if (since === undefined) return [];
    const use: PortabilityFeature = {
      feature: `type: ${kind}`,
      consequence: REJECTS,
      suggestion: since.suggestion,
      since: since.version,
    };
    return [[kind, use] as const];
  }),
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
 * expression runs. `any` and `all` are the reference's too since 0.2.69 (its ensure builtins).
 */
export const STRATUMC_BUILTINS: ReadonlyMap<string, ReferenceVersion | undefined> = new Map([
  ["float", undefined],
  ["sum", undefined],
  ["abs", undefined],
  ["round", undefined],
  ["sorted", undefined],
  ["any", "0.2.69"],
  ["all", "0.2.69"],
]);

export function builtinFeature(name: string, field: string): PortabilityFeature {
  // A skip_if that raises means "do not skip" there (docs/reference/divergences.md, DIV-SKIP-IF-WARNINGS).
  const outcome = field === "skip_if" ? " (so the step is never skipped)" : "";
  const since = STRATUMC_BUILTINS.get(name);
  return {
    feature: `the builtin '${name}'`,
    consequence: `in stratum-mcp {version} the expression raises NameError when it runs${outcome}`,
    suggestion: `Rewrite it with the reference's builtins (file_exists, file_contains, len, bool, int, str, max, min), ${KEEP}`,
    ...(since === undefined ? {} : { since }),
  };
}

/** A `$` path outside skip_if (docs/reference/divergences.md, DIV-DOLLAR-EVERYWHERE). */
export function dollarPathFeature(field: string): PortabilityFeature {
  return {
    feature: `a $ path in ${field}`,
    consequence: "in stratum-mcp {version} the expression is a syntax error when it runs",
    suggestion: `The reference resolves $ paths only in inputs and skip_if: pass the value as an input and have the step report what to check in its result, ${KEEP}`,
  };
}

/**
 * Run-budget keys new in stratum-mcp 0.2.69 (its BudgetDef gained them, enforced on a flow's
 * budget): the 0.2.50 schema (additionalProperties: false) rejects them wherever a budget stands.
 */
export const BUDGET_KEYS_SINCE_0250: ReadonlyMap<string, PortabilityFeature> = new Map(
  ["max_agent_dispatches", "max_tokens"].map((key) => [
    key,
    {
      feature: `'${key}' (budgets)`,
      consequence: REJECTS,
      suggestion: `Remove '${key}' to run the spec on stratum-mcp 0.2.50 (only ms and usd are known there), ${KEEP}`,
      since: "0.2.69",
    },
  ]),
);

/** A key the reference accepts from 0.2.69 on: 0.2.50's schema rejects it as an unknown key. */
export interface NewerKey {
  readonly shape: "function" | "step";
  readonly key: string;
  readonly use: PortabilityFeature;
}

/**
 * The keys of 0.2.69 that 0.2.50 refuses, for `check --portable` against 0.2.50
 * (docs/reference/language.md §11.4 and 6.8): the result cache and the pre-merge gate.
 */
export const KEYS_SINCE_0269: readonly NewerKey[] = [
  {
    shape: "function",
    key: "cache",
    use: {
      feature: "'cache' (functions)",
      consequence: REJECTS,
      since: "0.2.69",
      suggestion: "Remove cache (0.2.50 re-runs every step), or require stratum-mcp 0.2.69",
    },
  },
  {
    shape: "step",
    key: "cache",
    use: {
      feature: "'cache' (steps)",
      consequence: REJECTS,
      since: "0.2.69",
      suggestion: "Remove cache (0.2.50 re-runs every step), or require stratum-mcp 0.2.69",
    },
  },
  {
    shape: "step",
    key: "pre_merge_verify",
    use: {
      feature: "'pre_merge_verify' (parallel_dispatch steps)",
      consequence: REJECTS,
      since: "0.2.69",
      suggestion: "Run the checks in the step's ensure or a later step, or require stratum-mcp 0.2.69",
    },
  },
];

/**
 * Top-level keys the reference's schema rejects: `properties` (what `stratumc fuzz` checks on every
 * run, docs/guides/testing-a-spec.md). The reference runs no property, so the key makes the whole
 * spec unloadable there.
 */
export const STRATUMC_ROOT_KEYS: ReadonlyMap<string, PortabilityFeature> = new Map([
  [
    "properties",
    {
      feature: "'properties' (the top-level block)",
      consequence: REJECTS,
      suggestion: `Remove the properties block from the copy of the spec the reference runs, ${KEEP}`,
    },
  ],
]);
